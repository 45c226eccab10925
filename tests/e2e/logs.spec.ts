// The request log as a support desk uses it: by default what the merchant's systems and people did, the console's own
// page-view reads behind "Show the console's own reads"; a request found by payout id, idempotency key or status.
import type { Page } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { expect, test } from './fixtures';

/** Reloads the log until `check` holds: calls reach it a moment after they are made (written in batches). */
async function untilLogged(page: Page, url: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout: 15_000 });
}

test("the log shows the merchant's calls by default and the console's own reads only when asked", async ({ signedIn: page, payments }) => {
  const stamp = Date.now();
  const payout = await payments({ action: 'withdraw', amount: 15_000, bank_code: 'BCA', account_number: '1234567890' }, `logs-${stamp}`);
  // Page views: each makes the console's own reads (get_current_key, get_balance, get_account_settings…).
  await page.goto('/balance');
  await page.goto('/dashboard');
  const rows = page.getByTestId('request-row');
  await untilLogged(page, '/logs', async () => {
    await expect(rows.filter({ has: page.locator(`[href="/payouts/${payout.id}"]`) }).first()).toBeVisible({ timeout: 1000 });
  });
  await expect(page.getByTestId('console-reads-hidden')).toBeVisible();
  await expect(page.locator('[data-testid="request-row"][data-origin="console"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="request-row"][data-action="get_current_key"]')).toHaveCount(0);

  await page.getByLabel(/Show the console.s own reads/).check();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/console=1/);
  await expect(page.locator('[data-testid="request-row"][data-origin="console"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="request-row"][data-action="get_current_key"][data-origin="console"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="request-row"][data-action="withdraw"]').first()).toBeVisible();
  await expect(page.getByTestId('console-reads-hidden')).toHaveCount(0);
});

test('a request is found by payout id, by idempotency key and by status', async ({ signedIn: page, payments, request, merchant }) => {
  const stamp = Date.now();
  const key = `find-me-${stamp}`;
  const payout = await payments({ action: 'withdraw', amount: 16_000, bank_code: 'BCA', account_number: '1234567890' }, key);
  await payments({ action: 'get_payout', id: payout.id });
  // A refusal: more than the balance holds (422).
  const refused = await request.post(`${E2E_API_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${merchant.secretKey}`, 'x-service-idempotency': `too-much-${stamp}` },
    data: { action: 'withdraw', amount: 100_000_000, bank_code: 'BCA', account_number: '1234567890' },
  });
  expect(refused.status()).toBe(422);
  const rows = page.getByTestId('request-row');

  // By payout id: its withdrawal and the read of it, nothing else.
  await untilLogged(page, '/logs', async () => {
    await page.getByLabel('Payout or object id').fill(payout.id);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows).toHaveCount(2, { timeout: 1000 });
  });
  await expect(page).toHaveURL(new RegExp(`object_id=${payout.id}`));
  expect(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-action')))).toEqual(['get_payout', 'withdraw']);

  // By idempotency key: the one withdrawal.
  await page.goto('/logs');
  await page.getByLabel('Idempotency key').fill(key);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-action', 'withdraw');
  await expect(rows.first()).toContainText(payout.id);

  // By status: the refusal, in words in the choice.
  await page.goto('/logs');
  await page.getByLabel('Status').selectOption({ label: 'Refused: e.g. not enough balance (422)' });
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/status=422/);
  await expect(rows.filter({ hasText: `too-much-${stamp}` })).toHaveCount(1);
  expect(new Set(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-status'))))).toEqual(new Set(['422']));
  // Nothing matches: said in words.
  await page.goto(`/logs?object_id=po_nosuchpayout${stamp}`);
  await expect(page.getByText('No request matches this search.')).toBeVisible();
});
