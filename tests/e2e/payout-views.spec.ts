// The payouts page as a merchant's daily tool: search by id or last four, status and date filters with
// the filter's total, the CSV export against the API's own list, "Created by", and empty states.
// Each test that counts uses a merchant of its own, so its figures are exact.
import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import Papa from 'papaparse';
import { addDays, dayInZone, startOfDayInZone } from '@/lib/contract/time-zone';
import { createMerchant, expect, merchantApi, test } from './fixtures';
import { startSession } from './helpers';
import type { JsonAnswer } from '../helpers/json-answer';

type Call = ReturnType<typeof merchantApi>;

/** A merchant of this test's own, signed in on `page` (by the API: the form is session.spec.ts's). */
async function freshMerchant(page: Page, request: APIRequestContext, name: string) {
  const merchant = createMerchant(`${name} ${Date.now()}`, 5_000_000);
  await startSession(page, merchant.secretKey);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  return { merchant, call: merchantApi(request, merchant) };
}

/** A payout sent and left to the settlement job (1 s in this suite) until it reaches `status`. */
async function payout(call: Call, amount: number, account: string, status: 'paid' | 'failed' | 'pending') {
  const p = await call({ action: 'withdraw', amount, bank_code: 'BCA', account_number: account }, `pv-${amount}-${Date.now()}`);
  await expect.poll(async () => (await call({ action: 'get_payout', id: p.id })).status, { timeout: 15_000 }).toBe(status);
  return p as { id: string };
}

/** A day of the merchant's zone (Asia/Jakarta, every new merchant's), counted from today: the filter's days are the zone's. */
const zoneDay = (offsetDays: number) => addDays(dayInZone(Date.now(), 'Asia/Jakarta'), offsetDays);
const rowIds = async (page: Page) =>
  page.getByTestId('payout-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-payout-id')));

async function expectSummary(page: Page, count: number, total: number) {
  const summary = page.getByTestId('payout-summary');
  await expect(summary).toHaveAttribute('data-count', String(count));
  await expect(summary).toHaveAttribute('data-total', String(total));
}

async function apply(page: Page, fields: { search?: string; from?: string; to?: string }) {
  if (fields.search !== undefined) await page.getByLabel('Search').fill(fields.search);
  if (fields.from !== undefined) await page.getByLabel('From').fill(fields.from);
  if (fields.to !== undefined) await page.getByLabel('To').fill(fields.to);
  await page.getByRole('button', { name: 'Apply' }).click();
}

test('search by last four, status and dates in the URL, the total, and a CSV equal to the API list', async ({ page, request }) => {
  test.slow();
  const { merchant, call } = await freshMerchant(page, request, 'Filters');
  const a = await payout(call, 11_111, '9990001234', 'paid');
  const b = await payout(call, 22_222, '4000000001', 'failed');
  const c = await payout(call, 33_333, '7770005678', 'paid');
  const d = await payout(call, 44_444, '4000000003', 'pending');
  // One made by a restricted key: its name shows as "Created by", in the table and the CSV.
  const key = await call({ action: 'create_restricted_key', name: 'Ops bot', permissions: ['payouts:write', 'payouts:read'] });
  const bot = merchantApi(request, { ...merchant, secretKey: key.secret });
  const e = await payout(bot, 55_555, '6660001234', 'paid');

  await page.goto('/payouts');
  await expectSummary(page, 5, 166_665);
  await expect(page.getByTestId('payout-summary')).toContainText('5 payouts, IDR 166,665 in total');
  await expect.poll(() => rowIds(page)).toEqual([e.id, d.id, c.id, b.id, a.id]);
  await expect(page.locator(`[data-payout-id="${e.id}"]`).getByTestId('created-by')).toHaveText('Ops bot');
  await expect(page.locator(`[data-payout-id="${a.id}"]`).getByTestId('created-by')).toHaveText('Secret key');

  // The last four digits: a's and e's account end in 1234.
  await apply(page, { search: '1234' });
  await expect(page).toHaveURL(/[?&]q=1234/);
  await expectSummary(page, 2, 66_666);
  await expect.poll(() => rowIds(page)).toEqual([e.id, a.id]);

  // Every failed payout (b's account ends in 0001), then paid ones on …1234 again.
  await apply(page, { search: '' });
  await expectSummary(page, 5, 166_665);
  await page.getByLabel('Status').selectOption('failed');
  await expect(page).toHaveURL(/[?&]status=failed/);
  await expectSummary(page, 1, 22_222);
  await expect.poll(() => rowIds(page)).toEqual([b.id]);
  await page.getByLabel('Status').selectOption('paid');
  await expectSummary(page, 3, 99_999);
  await apply(page, { search: '1234', from: zoneDay(0), to: zoneDay(0) });
  await expectSummary(page, 2, 66_666);
  await expect.poll(() => rowIds(page)).toEqual([e.id, a.id]);

  // The export of this view equals the API's own list for the same filter, column by column.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = fs.readFileSync((await (await download).path())!, 'utf8');
  const csv = Papa.parse<Record<string, string>>(file.trim(), { header: true });
  expect(csv.meta.fields).toEqual([
    'id',
    'created_at',
    'amount',
    'currency',
    'bank_code',
    'account_last4',
    'status',
    'failure_code',
    'reference',
    'created_by',
    'bank_reference',
    'paid_at',
    'returned_at',
  ]);
  const listed = await call({
    action: 'list_payouts',
    limit: 100,
    status: 'paid',
    account_last4: '1234',
    created_gte: startOfDayInZone(zoneDay(0), 'Asia/Jakarta').toISOString(),
  });
  expect(csv.data).toEqual(
    listed.data.map((p: JsonAnswer) => ({
      id: p.id,
      created_at: p.created_at,
      amount: String(p.amount),
      currency: p.currency,
      bank_code: p.bank_code,
      account_last4: p.account_last4,
      status: p.status,
      failure_code: p.failure_code ?? '',
      reference: p.reference ?? '',
      created_by: p.created_by.type === 'secret' ? 'Secret key' : p.created_by.key_name,
      bank_reference: p.bank_reference ?? '',
      paid_at: p.paid_at ?? '',
      returned_at: p.returned_at ?? '',
    })),
  );
  expect(csv.data.map((r) => [r.id, r.amount, r.created_by])).toEqual([
    [e.id, '55555', 'Ops bot'],
    [a.id, '11111', 'Secret key'],
  ]);
  expect(file).not.toContain('9990001234');
  // The export route checks its query as the page does: a bad value is a 400 naming it.
  const bad = await page.request.get('/api/payouts/export?from=2026-02-30');
  expect([bad.status(), (await bad.json()).error.param]).toEqual([400, 'from']);

  // The link reproduces the view in a new tab; a range that excludes today is empty, and says so.
  const url = page.url();
  const again = await page.context().newPage();
  await again.goto(url);
  await expectSummary(again, 2, 66_666);
  await expect.poll(() => rowIds(again)).toEqual([e.id, a.id]);
  await again.close();
  await apply(page, { from: zoneDay(1), to: zoneDay(2) });
  await expectSummary(page, 0, 0);
  await expect(page.getByTestId('empty-state')).toContainText('No payouts match this filter');

  // A payout id in the search box opens that payout; a search that is neither is said in words.
  await page.goto('/payouts');
  await apply(page, { search: c.id });
  await expect(page).toHaveURL(new RegExp(`/payouts/${c.id}$`));
  await expect(page.getByRole('heading', { name: c.id })).toBeVisible();
  // The total keeps up as payouts settle: a new one joins "paid" without a reload.
  await page.goto('/payouts?status=paid');
  await expectSummary(page, 3, 99_999);
  await call({ action: 'withdraw', amount: 10_001, bank_code: 'BCA', account_number: '1234567890' }, `pv-late-${Date.now()}`);
  await expectSummary(page, 4, 110_000);
  await page.goto('/payouts?q=12ab');
  await expect(page.getByTestId('filter-error')).toHaveText('Search by a payout id (po_…) or the last four digits of an account.');
});

test('a new merchant sees empty states that say what to do next', async ({ page, request }) => {
  await freshMerchant(page, request, 'Empty');
  await expect(page.getByText('No payouts yet. Send one from the')).toBeVisible();
  await expect(page.getByText('No payments yet.')).toBeVisible();
  await page.goto('/payouts');
  await expectSummary(page, 0, 0);
  await expect(page.getByTestId('empty-state')).toContainText('No payouts yet. Send one from the dashboard');
  await expect(page.getByTestId('empty-state')).toContainText('"action":"withdraw"');
});

test('the dashboard: money in and out over 7 days, exact, and the latest payments with the card', async ({ page, request }) => {
  const { call } = await freshMerchant(page, request, 'Flows');
  await payout(call, 100_000, '1234567890', 'paid');
  await payout(call, 40_000, '4000000001', 'failed');
  const session = await call({ action: 'create_checkout_session', amount: 150_000, description: 'Two coffees' });
  await call({ action: 'simulate_checkout_payment', id: session.id });

  // Opening balance 5,000,000 + the reversal 40,000 + the payment 150,000 in; the two payouts out.
  const entries = (await call({ action: 'list_balance_transactions', limit: 100 })).data as { amount: number }[];
  const sum = (sign: number) => entries.filter((t) => Math.sign(t.amount) === sign).reduce((s, t) => s + Math.abs(t.amount), 0);
  expect([sum(1), sum(-1)]).toEqual([5_190_000, 140_000]);
  await page.goto('/dashboard');
  await expect(page.getByTestId('money-in')).toHaveAttribute('data-amount', '5190000');
  await expect(page.getByTestId('money-in')).toHaveText('+IDR 5,190,000');
  await expect(page.getByTestId('money-out')).toHaveAttribute('data-amount', '140000');
  await expect(page.getByTestId('money-out')).toHaveText('−IDR 140,000');

  const payment = page.getByTestId('payment-row');
  await expect(payment).toHaveCount(1);
  await expect(payment).toHaveAttribute('data-amount', '150000');
  await payment.getByRole('link', { name: session.id }).click();
  await expect(page.getByTestId('cs-card')).toHaveText('•••• 4242');
  await page.goto('/checkout-sessions');
  await expect(page.locator(`[data-session-id="${session.id}"]`).getByTestId('created-by')).toHaveText('Secret key');
});
