// The refunds list: every refund, filtered by status and by days in the merchant's zone, the same view as a CSV, and
// each refund reachable from it.
import fs from 'node:fs';
import Papa from 'papaparse';
import { expect, test } from './fixtures';

const jakartaDay = (offsetDays = 0) => new Date(Date.now() + 7 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

test('refunds are listed, filtered by status and day, exported as CSV, and each opens where it was made', async ({
  signedIn: page,
  payments,
}) => {
  const session = await payments({ action: 'create_checkout_session', amount: 300_000, description: 'Refund list order' });
  await payments({ action: 'simulate_checkout_payment', id: session.id });
  const refunded = await payments({ action: 'create_refund', checkout_session_id: session.id, amount: 10_000, reason: 'Late delivery' });
  await payments({ action: 'simulate_refund', id: refunded.id, outcome: 'succeeded' });
  const failed = await payments({ action: 'create_refund', checkout_session_id: session.id, amount: 5_000 });
  await payments({ action: 'simulate_refund', id: failed.id, outcome: 'failed' });

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Refunds' }).click();
  await expect(page.getByRole('heading', { name: 'Refunds', level: 1 })).toBeVisible();
  const rows = page.getByTestId('refund-row');
  const row = (id: string) => page.locator(`[data-testid="refund-row"][data-refund-id="${id}"]`);
  await expect(row(refunded.id)).toContainText('Refunded');
  await expect(row(refunded.id)).toContainText('Late delivery');
  await expect(row(refunded.id)).toContainText('IDR 10,000');
  await expect(row(failed.id)).toContainText('Failed');

  // By status.
  await page.getByLabel('Status').selectOption({ label: 'Failed' });
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(row(failed.id)).toBeVisible();
  await expect(row(refunded.id)).toHaveCount(0);
  expect(new Set(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-status'))))).toEqual(new Set(['failed']));

  // By day: today in the merchant's zone has them; tomorrow none, said in words.
  await page.goto(`/refunds?from=${jakartaDay()}&to=${jakartaDay()}`);
  await expect(row(refunded.id)).toBeVisible();
  await page.goto(`/refunds?from=${jakartaDay(1)}`);
  await expect(page.getByTestId('refunds-empty')).toContainText('No refund matches this filter');

  // The CSV of the succeeded ones: the API's codes and exact integers.
  await page.goto('/refunds?status=succeeded');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toBe(`refunds-${jakartaDay()}.csv`);
  const csv = Papa.parse<Record<string, string>>(fs.readFileSync((await (await download).path())!, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  }).data;
  expect(csv.every((r) => r.status === 'succeeded')).toBe(true);
  expect(csv.find((r) => r.id === refunded.id)).toMatchObject({
    amount: '10000',
    currency: 'IDR',
    checkout_session_id: session.id,
    reason: 'Late delivery',
  });
  expect(csv.find((r) => r.id === failed.id)).toBeUndefined();

  // A refund opens on its checkout session's page, where it was made.
  await row(refunded.id).getByRole('link', { name: refunded.id }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout-sessions/${session.id}`));
});
