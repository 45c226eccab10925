// The Reports page against the API's own statement: figures exact, the lines as a CSV download, and the print
// stylesheet as an A4 PDF (Chromium's page.pdf()) whose text is the statement without the console around it.
import fs from 'node:fs';
import Papa from 'papaparse';
import { extractText, getDocumentProxy } from 'unpdf';
import { expect, test } from './fixtures';

/** Today in Jakarta (the merchant's default zone), YYYY-MM-DD. */
const jakartaToday = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

test('a range of days shows the statement the API gives, downloads its lines, and prints as one clean A4 page', async ({
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
  const lastMonth = new Date(
    Date.UTC(new Date(Date.now() + 7 * 3_600_000).getUTCFullYear(), new Date(Date.now() + 7 * 3_600_000).getUTCMonth() - 1, 1),
  )
    .toISOString()
    .slice(0, 7);
  await expect(page.getByLabel('Month', { exact: true })).toHaveValue(lastMonth);

  const today = jakartaToday();
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Show range' }).click();
  await expect(page).toHaveURL(new RegExp(`/reports\\?from=${today}&to=${today}$`));
  const from = new Date(Date.parse(`${today}T00:00:00+07:00`)).toISOString();
  const to = new Date(Date.parse(`${today}T00:00:00+07:00`) + 86_400_000).toISOString();
  const api = await payments({ action: 'get_statement', from, to });
  await expect(page.getByTestId('opening-balance')).toHaveAttribute('data-amount', String(api.opening_balance));
  await expect(page.getByTestId('closing-balance')).toHaveAttribute('data-amount', String(api.closing_balance));
  const rows = page.getByTestId('total-row');
  await expect(rows).toHaveCount(Object.keys(api.totals).length);
  for (const [type, t] of Object.entries(api.totals as Record<string, { amount: number; count: number }>)) {
    const row = page.locator(`[data-testid="total-row"][data-type="${type}"]`);
    await expect(row).toHaveAttribute('data-amount', String(t.amount));
    await expect(row).toHaveAttribute('data-count', String(t.count));
  }
  expect(api.totals.payout.count).toBeGreaterThanOrEqual(1);
  expect(api.totals.checkout_payment.amount).toBeGreaterThanOrEqual(80_000);
  await expect(page.getByTestId('statement-period')).toContainText('(Asia/Jakarta)');

  // The lines: every balance transaction of the period, as the API lists them.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download lines (CSV)' }).click();
  const csv = Papa.parse<Record<string, string>>(fs.readFileSync((await (await download).path())!, 'utf8'), { header: true });
  const lines = await payments({ action: 'list_balance_transactions', created_gte: from, created_lt: to, limit: 100 });
  expect(csv.data.map((r) => [r.id, Number(r.amount), r.source])).toEqual(
    lines.data.map((t: { id: string; amount: number; source: string }) => [t.id, t.amount, t.source]),
  );
  const sum = csv.data.reduce((s, r) => s + Number(r.amount), 0);
  expect(api.opening_balance + sum).toBe(api.closing_balance);

  // Printed: one A4 page, the merchant, the period with its zone and the totals; no navigation, banner or controls.
  const pdf = await getDocumentProxy(new Uint8Array(await page.pdf({ preferCSSPageSize: true })));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  expect(totalPages).toBe(1);
  const [, , width, height] = (await pdf.getPage(1)).view;
  expect([Math.round(width!), Math.round(height!)]).toEqual([595, 842]);
  for (const want of [
    merchant.name,
    'Asia/Jakarta',
    'Opening balance',
    'Closing balance',
    'Checkout payment',
    'Failed payout: money back',
  ]) {
    expect(text).toContain(want);
  }
  for (const absent of ['Merchant Console', 'Dashboard', 'Download lines', 'Print statement', 'Test mode', 'Show range']) {
    expect(text).not.toContain(absent);
  }
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
