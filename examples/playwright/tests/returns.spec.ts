import { expect, test } from 'merchant-payments-playwright';

test('paid, then returned three days later: seconds with the clock', async ({ payments, clock, webhooks }) => {
  const { data: payout } = await payments.withdraw({ amount: 75_000, bank_code: 'BNI', account_number: '4000000004' });
  await clock.advance('1m');
  await webhooks.next('payout.paid', { payoutId: payout.id });
  await clock.advance('3d');
  const returned = await webhooks.next('payout.returned', { payoutId: payout.id });
  expect(returned.data.object).toMatchObject({ status: 'returned', failure_code: 'account_closed' });
  const { data: balance } = await payments.getBalance();
  expect(balance.pending_payouts).toBe(0);
});

test('a failed payout gives its money back', async ({ payments, clock, webhooks }) => {
  const before = (await payments.getBalance()).data.available;
  const { data: payout } = await payments.withdraw({ amount: 20_000, bank_code: 'BCA', account_number: '4000000001' });
  await clock.advance('1h');
  const failed = await webhooks.next('payout.failed', { payoutId: payout.id });
  expect(failed.data.object).toMatchObject({ failure_code: 'invalid_account' });
  expect((await payments.getBalance()).data.available).toBe(before);
});
