import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import type { PaymentsOptions } from 'merchant-payments-playwright';

// The API and the console this suite runs against, and the parent merchant's key: each worker makes a
// sandbox of its own from it (MERCHANT_PAYMENTS_BASE_URL, MERCHANT_PAYMENTS_SECRET_KEY).
const chromium = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE ?? '/usr/bin/chromium';

export default defineConfig<PaymentsOptions>({
  testDir: 'tests',
  workers: 4,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.MERCHANT_PAYMENTS_BASE_URL,
    browserName: 'chromium',
    // Debian's Chromium when there is one; otherwise Playwright's own (npx playwright install chromium).
    launchOptions: { executablePath: fs.existsSync(chromium) ? chromium : undefined, args: ['--no-sandbox', '--disable-gpu'] },
    trace: 'retain-on-failure',
  },
});
