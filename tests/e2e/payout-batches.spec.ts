// The "Batch payout" page: a CSV checked row by row before anything is sent, sent once, then followed.
import { expect, test } from '@playwright/test';
import { api, signIn } from './helpers';

const csv = (rows: string[]) => Buffer.from(['amount,bank_code,account_number,reference', ...rows].join('\r\n'), 'utf8');

test('a CSV with a bad row sends nothing; the corrected file is sent once, even on a double click, and followed', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Batch payout' }).click();
  await expect(page.getByRole('heading', { name: 'Batch payout' })).toBeVisible();
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/payout-batches') && r.method() === 'POST') sent.push(r.postDataJSON().idempotency_key);
  });

  const input = page.getByLabel(/CSV file/);
  await input.setInputFiles({
    name: 'payroll.csv',
    mimeType: 'text/csv',
    buffer: csv(['"15,000",BCA,1111222233,june-1', '20000,NOPE,2222333344,june-2', '30000,bni,4000000001,']),
  });
  await expect(page.getByTestId('batch-summary')).toContainText('3 rows, 2 ready');
  await expect(page.getByTestId('batch-row').nth(1)).toHaveAttribute('data-valid', 'false');
  await expect(page.getByTestId('batch-row').nth(1)).toContainText('Bank code “NOPE” is not supported: use one of BCA');
  // Each ready row's holder is looked up before anything is sent; an account the bank does not know is flagged.
  await expect(page.getByTestId('batch-holder').nth(0)).toHaveText('PT Maju Jaya');
  await expect(page.getByTestId('batch-holder').nth(2)).toContainText('No such account');
  await expect(page.getByTestId('batch-unknown-accounts')).toBeVisible();
  await expect(page.getByRole('button', { name: /Send \d+ payouts/ })).toBeDisabled();
  // The full account number is never on the page.
  await expect(page.getByText('1111222233')).toHaveCount(0);

  await input.setInputFiles({
    name: 'payroll.csv',
    mimeType: 'text/csv',
    buffer: csv(['"15,000",BCA,1111222233,june-1', '20000,BNI,2222333344,june-2', '30000,bni,4000000002,']),
  });
  await expect(page.getByTestId('batch-summary')).toContainText('3 rows, 3 ready');
  await page.getByRole('button', { name: 'Send 3 payouts' }).dblclick();
  await expect(page.getByTestId('batch-result')).toContainText('3 payouts');
  // Followed until every payout has settled: two paid, the test account that fails failed.
  await expect(page.getByTestId('batch-counts')).toHaveText('Pending 0 · paid 2 · failed 1', { timeout: 20_000 });
  expect(new Set(sent).size).toBe(1);

  const batchId = (await page.getByTestId('batch-result').textContent())!.match(/pb_[0-9A-Za-z]+/)![0];
  const listed = await api(page.request, { action: 'list_payouts', batch_id: batchId, limit: 10 });
  expect(listed.data.map((p: { reference: string | null }) => p.reference).sort()).toEqual(['june-1', 'june-2', null].sort());
  const batches = await api(page.request, { action: 'list_payout_batches', limit: 5 });
  expect(batches.data.filter((b: { id: string }) => b.id === batchId)).toHaveLength(1);
});
