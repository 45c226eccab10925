// Bank references and returns in the console: a paid payout's page shows its bank reference; once the bank
// returns it, the timeline shows the return, its reason and the balance entry that gave the money back, and
// the payouts export of returned payouts carries the reference and the return. A low balance shows a banner
// on every page until it recovers.
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import Papa from 'papaparse';
import { createMerchant, expect, merchantApi, test } from './fixtures';
import { sendPayout, startSession } from './helpers';
import type { JsonAnswer } from '../helpers/json-answer';

test('a paid, then returned payout: bank reference, return reason, the money back, events and the CSV', async ({
  signedInBlank: page,
  payments,
}) => {
  const p = await payments({ action: 'withdraw', amount: 31_415, bank_code: 'BRI', account_number: '5550003141' }, `ret-${Date.now()}`);
  const paid = await payments({ action: 'simulate_payout', id: p.id, outcome: 'paid' });
  expect(paid.bank_reference).toMatch(/^TRF/);

  await page.goto(`/payouts/${p.id}`);
  await expect(page.getByTestId('payout-status')).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('bank-reference')).toContainText(paid.bank_reference);
  await expect(page.getByTestId('timeline-returned')).toHaveCount(0);

  const returned = await payments({ action: 'simulate_payout', id: p.id, outcome: 'returned' }, `ret-r-${Date.now()}`);
  const list = await payments({ action: 'list_balance_transactions', type: 'payout_return', limit: 100 });
  const entry = list.data.find((t: JsonAnswer) => t.source === p.id);
  expect(entry.amount).toBe(31_415);

  await page.reload();
  await expect(page.getByTestId('payout-status')).toHaveAttribute('data-status', 'returned');
  await expect(page.getByTestId('timeline-paid')).toContainText(paid.bank_reference);
  await expect(page.getByTestId('timeline-returned')).toContainText(returned.failure_message);
  await expect(page.getByTestId('timeline-returned')).toContainText('account_closed');
  const back = page.getByTestId('timeline-reversal');
  await expect(back).toHaveAttribute('data-amount', '31415');
  await expect(back).toHaveAttribute('data-balance-after', String(entry.balance_after));
  await expect(back).toContainText(entry.id);
  const events = page.getByTestId('payout-event');
  await expect(events).toHaveCount(3);
  expect(await events.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')))).toEqual([
    'payout.created',
    'payout.paid',
    'payout.returned',
  ]);

  // The balance history: the entry that gave the money back, with the payout's bank reference.
  await page.getByRole('link', { name: 'See it in the balance history' }).click();
  const row = page.getByTestId('txn-row').first();
  await expect(row).toHaveAttribute('data-txn-id', entry.id);
  await expect(row).toHaveAttribute('data-type', 'payout_return');
  await expect(row).toContainText('Payout returned by the bank');
  await expect(row).toContainText(`Bank reference ${paid.bank_reference}`);

  // The payouts page filtered to returned payouts, and its export.
  await page.goto('/payouts?status=returned');
  await expect(page.locator(`[data-payout-id="${p.id}"]`)).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = fs.readFileSync((await (await download).path())!, 'utf8');
  const rows = Papa.parse<Record<string, string>>(file.trim(), { header: true }).data;
  expect(rows.map((r) => [r.id, r.status, r.failure_code, r.bank_reference, r.paid_at, r.returned_at])).toEqual([
    [p.id, 'returned', 'account_closed', paid.bank_reference, paid.paid_at, returned.returned_at],
  ]);
});

test('a low balance shows a banner on every page until it is back at the threshold', async ({ page, request }) => {
  const merchant = createMerchant(`Low balance ${Date.now()}`, 100_000);
  const payments = merchantApi(request, merchant);
  await startSession(page, merchant.secretKey);
  await page.goto('/dashboard');
  await expect(page.getByTestId('available')).toBeVisible();
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);

  await payments({ action: 'update_account_settings', low_balance_threshold: 250_000 });
  for (const path of ['/dashboard', '/payouts', '/balance', '/webhooks']) {
    await page.goto(path);
    const banner = page.getByTestId('low-balance-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('IDR 100,000 available, below your threshold of IDR 250,000');
  }
  // Readable in both schemes and at a phone's width: no serious axe finding, no horizontal scroll.
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 390],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/dashboard');
    await expect(page.getByTestId('low-balance-banner')).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="low-balance-banner"]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
  }
  // A payout the balance does not cover: the refusal says how much is missing.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 844 });
  await page.goto('/dashboard');
  await sendPayout(page, { amount: 150_000, bank: 'BCA', account: '1234567890' });
  await expect(page.getByTestId('payout-refused')).toContainText(
    'Your available balance does not cover this amount: IDR 50,000 is missing.',
  );
  const low = await payments({ action: 'list_events', type: 'balance.low' });
  expect(low.data.map((e: JsonAnswer) => e.data.object)).toEqual([
    { object: 'balance', available: 100_000, low_balance_threshold: 250_000, currency: 'IDR' },
  ]);

  await payments({ action: 'create_test_topup', amount: 150_000 }, `low-topup-${Date.now()}`);
  await page.goto('/payouts');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);
  const up = await payments({ action: 'list_events', type: 'balance.recovered' });
  expect(up.data).toHaveLength(1);
});
