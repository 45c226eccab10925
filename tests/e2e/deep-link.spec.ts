// A link opened while signed out survives the sign-in page; only same-origin paths are followed.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';

async function signInHere(page: import('@playwright/test').Page, key: string) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a payout link opened signed out lands on that payout after sign-in', async ({ browser, merchant, payments }) => {
  const failed = await payments(
    { action: 'withdraw', amount: 23_456, bank_code: 'BNI', account_number: '4000000001' },
    `deep-${Date.now()}`,
  );
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/payouts/${failed.id}?from=email`);
  await expect(page).toHaveURL(
    new RegExp(`/login\\?next=${encodeURIComponent(`/payouts/${failed.id}?from=email`).replace(/[?]/g, '\\?')}$`),
  );
  await signInHere(page, merchant.secretKey);
  await expect(page).toHaveURL(new RegExp(`/payouts/${failed.id}\\?from=email$`));
  await expect(page.getByRole('heading', { name: failed.id })).toBeVisible();
  await context.close();
});

/** Every page under app/(console), read from the file system: a page added later is covered. */
function consolePages(dir = path.join(__dirname, '../../app/(console)'), prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return /^page\.(tsx|ts|jsx|js)$/.test(entry.name) && prefix ? [prefix] : [];
    // A dynamic segment gets a value of the right shape; the page may answer "not found" for it, the URL is what survives.
    const segment = entry.name.startsWith('[') ? 'xyz_DeepLink01' : entry.name;
    return consolePages(path.join(dir, entry.name), `${prefix}/${segment}`);
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const target of consolePages().map((p) => `${p}?from=email`)) {
  test(`signed out, ${target} goes to sign-in and lands back there after it`, async ({ browser, merchant }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(target);
    await expect(page).toHaveURL(new RegExp(`/login\\?next=${escape(encodeURIComponent(target))}$`));
    await signInHere(page, merchant.secretKey);
    await expect(page).toHaveURL(new RegExp(`^http://[^/]+${escape(target)}$`));
    // Off the sign-in form: its field is labelled exactly "API key" (/api-keys has a table "API keys" once the merchant has keys).
    await expect(page.getByLabel('API key', { exact: true })).toHaveCount(0);
    await context.close();
  });
}

for (const next of ['//evil.example/x', 'https://evil.example/x', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)']) {
  test(`sign-in refuses next=${next} and goes to the dashboard`, async ({ browser, merchant }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await signInHere(page, merchant.secretKey);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
    await context.close();
  });
}
