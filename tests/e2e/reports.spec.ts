// The Reports page as an accountant reads it, against the API's own statement and lines: whose, which period in which
// zone, when made, test mode; opening balance, every line with its running balance, totals by kind, net movement and
// closing balance, reconciled on the page; a period not over says "to date"; the CSV named for the period with the
// merchant's offset on every time; the print stylesheet as an A4 PDF (Chromium's page.pdf()) without the console.
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { extractText, getDocumentProxy } from 'unpdf';
import { expect, test } from './fixtures';

/** Now on Jakarta's clock (the merchant's default zone), as a Date whose UTC fields are Jakarta's. */
const jakartaNow = () => new Date(Date.now() + 7 * 3_600_000);
const jakartaToday = () => jakartaNow().toISOString().slice(0, 10);

/** The page's statement reconciles: each line's balance is the one before plus its amount, from the opening to the closing. */
async function expectReconciled(page: Page) {
  const opening = Number(await page.getByTestId('opening-balance').getAttribute('data-amount'));
  const closing = Number(await page.getByTestId('closing-balance').getAttribute('data-amount'));
  const net = Number(await page.getByTestId('net-movement').getAttribute('data-amount'));
  expect(opening + net).toBe(closing);
  const lines = await page
    .getByTestId('statement-line')
    .evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('data-amount')), Number(r.getAttribute('data-balance-after'))]));
  let running = opening;
  for (const [amount, after] of lines) {
    running += amount!;
    expect(after).toBe(running);
  }
  expect(running).toBe(closing);
  const totals = await page.getByTestId('total-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-amount'))));
  expect(totals.reduce((s, t) => s + t, 0)).toBe(net);
  return { opening, closing, net, lines };
}

test('a range of days reads like a bank statement, reconciles on the page, downloads its lines and prints as A4', async ({
  signedIn: page,
  payments,
  merchant,
}) => {
  const stamp = Date.now();
  const paid = await payments({ action: 'withdraw', amount: 21_000, bank_code: 'BCA', account_number: '1234567890' }, `rep-${stamp}`);
  await payments({ action: 'simulate_payout', id: paid.id, outcome: 'paid' });
  const session = await payments({ action: 'create_checkout_session', amount: 80_000 });
  await payments({ action: 'simulate_checkout_payment', id: session.id });

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Statement' })).toBeVisible();
  // By default, the last complete month in the merchant's zone.
  const lastMonth = new Date(Date.UTC(jakartaNow().getUTCFullYear(), jakartaNow().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  await expect(page.getByLabel('Month', { exact: true })).toHaveValue(lastMonth);

  const today = jakartaToday();
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Show range' }).click();
  await expect(page).toHaveURL(new RegExp(`/reports\\?from=${today}&to=${today}$`));
  const from = new Date(Date.parse(`${today}T00:00:00+07:00`)).toISOString();
  const to = new Date(Date.parse(`${today}T00:00:00+07:00`) + 86_400_000).toISOString();
  const api = await payments({ action: 'get_statement', from, to });

  // The heading: whose, which period (not over: to date) in which zone, when it was made, test mode.
  await expect(page.getByTestId('statement-merchant')).toHaveText(merchant.name);
  await expect(page.getByTestId('statement-period')).toContainText('(to date)');
  await expect(page.getByTestId('statement-period')).toContainText('Asia/Jakarta');
  await expect(page.getByTestId('statement-made')).toContainText(/Made \d+ \w+ \d{4}, \d\d:\d\d:\d\d WIB/);
  await expect(page.getByTestId('statement-test-mode')).toBeVisible();

  // The figures are the API's, and the page reconciles: opening + every line = each running balance; opening + net = closing.
  await expect(page.getByTestId('opening-balance')).toHaveAttribute('data-amount', String(api.opening_balance));
  await expect(page.getByTestId('closing-balance')).toHaveAttribute('data-amount', String(api.closing_balance));
  await expect(page.getByTestId('closing-balance').locator('xpath=preceding-sibling::dt[1]')).toContainText('Balance to date');
  const lines = await payments({ action: 'list_balance_transactions', created_gte: from, created_lt: to, limit: 100 });
  await expect(page.getByTestId('statement-line')).toHaveCount(lines.data.length);
  const shown = await expectReconciled(page);
  expect(shown.net).toBe(api.closing_balance - api.opening_balance);
  // Oldest first, as a statement reads; the kinds in words; the payout's bank reference beside its id.
  expect(shown.lines.map(([amount]) => amount)).toEqual(lines.data.map((t: { amount: number }) => t.amount).reverse());
  const payoutLine = page.getByTestId('statement-line').filter({ hasText: paid.id });
  await expect(payoutLine).toContainText('Payout');
  const bankRef = (await payments({ action: 'get_payout', id: paid.id })).bank_reference;
  await expect(payoutLine).toContainText(`Bank ref. ${bankRef}`);
  await expect(payoutLine.locator('td.num').first()).toHaveText(/^\u2212IDR\s21,000$/, { useInnerText: true });
  // Totals of the kinds the period has, as the API counts them.
  for (const [type, t] of Object.entries(api.totals as Record<string, { amount: number; count: number }>)) {
    const row = page.locator(`[data-testid="total-row"][data-type="${type}"]`);
    if (t.count === 0) await expect(row).toHaveCount(0);
    else await expect(row).toHaveAttribute('data-amount', String(t.amount));
  }
  await expect(page.getByTestId('reconciliation')).toContainText('net movement');
  // Amounts are right-aligned.
  expect(
    await payoutLine
      .locator('td.num')
      .first()
      .evaluate((td) => getComputedStyle(td).textAlign),
  ).toBe('right');

  // The lines as CSV: named for the range in the zone, every time with the merchant's offset, amounts plain integers.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download lines (CSV)' }).click();
  expect((await download).suggestedFilename()).toBe(`statement-${today}-${today}.csv`);
  const csv = Papa.parse<Record<string, string>>(fs.readFileSync((await (await download).path())!, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  });
  expect(csv.data.map((r) => [r.id, Number(r.amount), r.source])).toEqual(
    lines.data.map((t: { id: string; amount: number; source: string }) => [t.id, t.amount, t.source]),
  );
  for (const [i, r] of csv.data.entries()) {
    expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+07:00$/);
    // The same instant, on Jakarta's clock: its date is the merchant's day.
    expect(Math.floor(Date.parse(r.created_at!) / 1000)).toBe(Math.floor(Date.parse(lines.data[i].created_at) / 1000));
    expect(r.created_at!.slice(0, 10)).toBe(today);
    expect(r.amount).toMatch(/^-?[0-9]+$/);
  }
  expect(csv.data.find((r) => r.source === paid.id)).toMatchObject({ kind: 'Payout', amount: '-21000', bank_reference: bankRef });

  // Printed: A4, the statement's heading with its test-mode mark, the balances; no navigation, banner or controls.
  const pdf = await getDocumentProxy(new Uint8Array(await page.pdf({ preferCSSPageSize: true })));
  const { text } = await extractText(pdf, { mergePages: true });
  const [, , width, height] = (await pdf.getPage(1)).view;
  expect([Math.round(width!), Math.round(height!)]).toEqual([595, 842]);
  // Every column is on paper: the payout's amount and the running balance after it included.
  const afterPayout = shown.lines[lines.data.length - 1 - lines.data.findIndex((t: { source: string }) => t.source === paid.id)]![1]!;
  const money = (n: number) => n.toLocaleString('en-US');
  for (const want of [
    merchant.name,
    'Asia/Jakarta',
    'Test mode',
    'Made',
    'Opening balance',
    'Net movement',
    'Balance to date',
    'Bank ref.',
    'Checkout payment',
    '21,000',
    money(afterPayout),
  ]) {
    expect(text).toContain(want);
  }
  for (const absent of ['Merchant Console', 'Dashboard', 'Download lines', 'Print statement', 'no real money moves', 'Show range']) {
    expect(text).not.toContain(absent);
  }
});

test('the current month says to date and its CSV is named for the month; an empty month offers the last month with activity', async ({
  signedIn: page,
  payments,
}) => {
  await payments({ action: 'create_test_topup', amount: 12_345 });
  const month = jakartaToday().slice(0, 7);
  await page.goto(`/reports?month=${month}`);
  await expect(page.getByTestId('statement-period')).toContainText('(to date)');
  await expectReconciled(page);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download lines (CSV)' }).click();
  expect((await download).suggestedFilename()).toBe(`statement-${month}.csv`);

  await page.goto('/reports?month=2020-01');
  await expect(page.getByTestId('statement-empty')).toContainText('No balance changes in this period');
  await expect(page.getByTestId('statement-period')).not.toContainText('to date');
  await expect(page.getByTestId('closing-balance').locator('xpath=preceding-sibling::dt[1]')).toHaveText('Closing balance');
  await page.getByRole('link', { name: /the last month with activity/ }).click();
  await expect(page).toHaveURL(new RegExp(`/reports\\?month=${month}$`));
  await expect(page.getByTestId('statement-line').first()).toBeVisible();
});

test('a reversed range says what to do and keeps the statement that was on the page', async ({ signedIn: page }) => {
  await page.goto('/reports?month=2026-01');
  await expect(page.getByTestId('statement-period')).toContainText('1 Jan 2026');
  await page.getByLabel('From', { exact: true }).fill('2026-02-01');
  await page.getByLabel('To', { exact: true }).fill('2026-01-01');
  await page.getByRole('button', { name: 'Show range' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The end date' })).toHaveText(
    'The end date (1 Jan 2026) is before the start date (1 Feb 2026): pick an end date on or after 1 Feb 2026.',
  );
  await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue('2026-01-01');
  // The statement shown before the refused range stays.
  await expect(page.getByTestId('statement-period')).toContainText('1 Jan 2026');
  await expect(page).toHaveURL(/\/reports\?month=2026-01$/);
  // Typed as an address (no form to stop it): the same words, above the default statement.
  await page.goto('/reports?from=2026-02-01&to=2026-01-01');
  await expect(page.getByRole('alert').filter({ hasText: 'The end date' })).toContainText(
    'The end date (1 Jan 2026) is before the start date (1 Feb 2026)',
  );
  await expect(page.getByTestId('statement')).toBeVisible();
});
