import { PaymentsClient } from 'merchant-payments-sdk';
import { expect, test } from 'merchant-payments-playwright';

test('a payout made in the console waits for a second key, is paid when the clock moves, its webhook arrives, the statement shows it', async ({
  consolePage,
  payments,
  clock,
  webhooks,
  paymentsBaseUrl,
}) => {
  // Every payout waits for a second key's approval; Finance's key may approve.
  await payments.updatePayoutApprovalPolicy({ required: true, for_keys: 'all' });
  const { data: finance } = await payments.createRestrictedKey({ name: 'Finance', permissions: ['payouts:read', 'payouts:approve'] });
  const start = await clock.now();

  // The payout, made in the console, signed in with the sandbox's key.
  await consolePage.goto('/dashboard');
  await consolePage.getByLabel('Amount').fill('250000');
  await consolePage.getByLabel('Bank', { exact: true }).selectOption('BCA');
  await consolePage.getByLabel('Account number').fill('1234567890');
  await consolePage.getByRole('button', { name: 'Review payout' }).click();
  await consolePage.getByRole('button', { name: 'Send payout' }).click();
  await expect(consolePage.getByText(/Payout po_\w+ created: awaiting approval/)).toBeVisible();
  const payoutId = (await consolePage.getByRole('link', { name: /^po_/ }).textContent())!;

  // Finance approves it with its own key.
  const approver = new PaymentsClient({ baseUrl: paymentsBaseUrl!, secretKey: finance.secret! });
  await approver.approvePayouts({ ids: [payoutId] });

  // A day later on the sandbox's clock it is paid, and the webhook says so, signed.
  await clock.advance('1d');
  const paid = await webhooks.next('payout.paid', { payoutId });
  expect(paid.data.object).toMatchObject({ id: payoutId, status: 'paid', amount: 250_000 });

  const { data: statement } = await payments.getStatement({ from: start.toISOString(), to: (await clock.now()).toISOString() });
  expect(statement.totals.payout).toEqual({ amount: -250_000, count: 1 });
  // The statement closes on the balance now: what the sandbox began with, less the payout.
  expect(statement.closing_balance).toBe((await payments.getBalance()).data.available);
  expect(statement.closing_balance).toBe(statement.totals.opening_balance.amount - 250_000);
});
