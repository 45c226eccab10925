// The example of docs/testing.md, run by our own suite: a merchant of its own, and payouts driven to
// paid and to failed at once with simulate_payout (no waiting for the settlement timer).
import { expect, test } from './fixtures';

test('a payout sent in the console is driven to paid and another to failed, without waiting', async ({
  signedIn: page,
  payments,
  merchant,
}) => {
  const balance = await payments({ action: 'get_balance' });
  expect(balance.merchant.id).toBe(merchant.id);

  // 4000000003 stays pending for an hour on its own: only the helper settles it.
  await page.getByLabel('Amount').fill('120000');
  await page.getByLabel('Bank', { exact: true }).selectOption('BCA');
  await page.getByLabel('Account number').fill('4000000003');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await page.getByRole('button', { name: 'Send payout' }).click();
  const link = page.getByRole('link', { name: /^po_/ });
  await expect(link).toBeVisible();
  const id = (await link.textContent())!;

  await payments({ action: 'simulate_payout', id, outcome: 'paid' });
  const other = await payments(
    { action: 'withdraw', amount: 30_000, bank_code: 'BNI', account_number: '4000000003' },
    `fixture-${Date.now()}`,
  );
  await payments({ action: 'simulate_payout', id: other.id, outcome: 'failed', failure_code: 'invalid_account' });

  await page.goto(`/payouts/${id}`);
  await expect(page.getByTestId('payout-status')).toHaveAttribute('data-status', 'paid');
  await page.goto(`/payouts/${other.id}`);
  await expect(page.getByText('invalid_account').first()).toBeVisible();
  const after = await payments({ action: 'get_balance' });
  expect(after).toMatchObject({ available: balance.available - 120_000, pending_payouts: 0 });
});
