// A Playwright fixture for suites that test against this service (documented in docs/testing.md):
// a fresh merchant per worker, created while the server runs; a signed-in page; the API as that
// merchant, with the test-mode helpers that drive payouts and payments into any state at once.
import { execFileSync } from 'node:child_process';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_DATA_ENV, E2E_API_URL } from '../../playwright.config';
import { startSession } from './helpers';
import type { JsonAnswer } from '../helpers/json-answer';

export interface TestMerchant {
  id: string;
  name: string;
  secretKey: string;
}

/** `npm run merchant -- create --json` against the running server's data folder (it answers through its local admin endpoint). */
export function createMerchant(name: string, balance: number): TestMerchant {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/merchant.ts', 'create', '--name', name, '--balance', String(balance), '--json'],
    {
      env: { ...process.env, ...E2E_API_DATA_ENV },
      encoding: 'utf8',
    },
  );
  const m = JSON.parse(out);
  return { id: m.id, name: m.name, secretKey: m.secret_key };
}

/** The payment API as the worker's merchant: one call, 2xx expected. */
export function merchantApi(request: APIRequestContext, merchant: TestMerchant) {
  return async <T = JsonAnswer>(body: Record<string, unknown>, idempotencyKey?: string): Promise<T> => {
    const res = await request.post(`${E2E_API_URL}/v1/index.php`, {
      headers: { authorization: `Bearer ${merchant.secretKey}`, ...(idempotencyKey ? { 'x-service-idempotency': idempotencyKey } : {}) },
      data: body,
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return res.json();
  };
}

export const test = base.extend<
  { signedIn: Page; signedInBlank: Page; payments: ReturnType<typeof merchantApi> },
  { merchant: TestMerchant }
>({
  merchant: [
    async ({}, use, workerInfo) => {
      await use(createMerchant(`E2E worker ${workerInfo.workerIndex} ${Date.now()}`, 5_000_000));
    },
    { scope: 'worker' },
  ],
  payments: async ({ request, merchant }, use) => {
    await use(merchantApi(request, merchant));
  },
  // Signed in by POST /api/session from the page's request context (the cookie lands in the page's
  // browser context), not through the form: the form has tests of its own (session.spec.ts).
  // signedInBlank: the page is still blank, for a test whose first step opens a page of its own.
  signedInBlank: async ({ page, merchant }, use) => {
    await startSession(page, merchant.secretKey);
    await use(page);
  },
  // signedIn: on the dashboard, where the form would have sent the browser.
  signedIn: async ({ signedInBlank: page }, use) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard$/);
    await use(page);
  },
});

export { expect };
