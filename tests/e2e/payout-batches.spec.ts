// The "Batch payout" page: a CSV checked row by row before anything is sent, sent once, then followed.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { test as merchantTest } from './fixtures';
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

merchantTest(
  'a batch made through the API is listed with who made it and how its payouts ended, and opens to its payouts; a template downloads',
  async ({ signedIn: page, payments }) => {
    const payroll = await payments({
      action: 'create_restricted_key',
      name: 'Payroll system',
      permissions: ['payouts:write', 'payouts:read'],
    });
    const res = await page.request.post(`${E2E_API_URL}/v1/index.php`, {
      headers: { authorization: `Bearer ${payroll.secret}` },
      data: {
        action: 'create_payout_batch',
        payouts: [
          { amount: 11_000, bank_code: 'BCA', account_number: '1234567890' },
          { amount: 12_000, bank_code: 'BNI', account_number: '9876543210' },
          { amount: 13_000, bank_code: 'BCA', account_number: '4000000001' },
        ],
      },
    });
    expect(res.status()).toBe(200);
    const batch = await res.json();

    await page.getByRole('link', { name: 'Batch payout' }).click();
    const row = page.locator(`[data-testid="batch-row"][data-batch-id="${batch.id}"]`);
    await expect(row).toContainText('Payroll system');
    await expect(row).toHaveAttribute('data-count', '3');
    await expect(row).toContainText('IDR 36,000');
    // Settled in the background: two paid, one not (the test account fails); reloaded until the counts say so.
    await expect(async () => {
      await page.reload();
      await expect(row).toHaveAttribute('data-pending', '0', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toHaveAttribute('data-paid', '2');
    await expect(row).toHaveAttribute('data-failed', '1');

    await row.getByRole('link', { name: batch.id }).click();
    await expect(page).toHaveURL(new RegExp(`/payout-batches/${batch.id}$`));
    await expect(page.getByTestId('batch-summary')).toContainText('Payroll system');
    await expect(page.getByTestId('batch-paid')).toHaveText('2');
    await expect(page.getByTestId('batch-failed')).toHaveText('1');
    await expect(page.getByTestId('payout-row')).toHaveCount(3);
    for (const id of batch.payout_ids as string[])
      await expect(page.locator(`[data-testid="payout-row"][data-payout-id="${id}"]`)).toHaveCount(1);

    await page.goto('/payout-batches');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download a template (CSV)' }).click();
    expect((await download).suggestedFilename()).toBe('payout-batch-template.csv');
    const text = fs.readFileSync((await (await download).path())!, 'utf8');
    expect(text.split('\r\n')[0]).toBe('amount,bank_code,account_number,reference');
    // The template is a file the page itself takes: chosen as it is, its two rows are ready to send.
    await page.getByLabel(/CSV file/).setInputFiles({ name: 'template.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    await expect(page.getByRole('button', { name: /Send 2 payouts/ })).toBeVisible();
  },
);
