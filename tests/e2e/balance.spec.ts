// The Balance page against the API's own list: a payout, a failed payout and a checkout payment, exact.
import { expect, test } from './fixtures';
import type { JsonAnswer } from '../helpers/json-answer';

test('the balance history shows what the API lists, with sources linked, and a chart with a text alternative', async ({
  signedIn: page,
  payments,
}) => {
  const stamp = Date.now();
  const paid = await payments({ action: 'withdraw', amount: 31_000, bank_code: 'BCA', account_number: '1234567890' }, `bal-paid-${stamp}`);
  await payments({ action: 'simulate_payout', id: paid.id, outcome: 'paid' });
  const failed = await payments(
    { action: 'withdraw', amount: 42_000, bank_code: 'BNI', account_number: '4000000001' },
    `bal-failed-${stamp}`,
  );
  await payments({ action: 'simulate_payout', id: failed.id, outcome: 'failed', failure_code: 'invalid_account' });
  const session = await payments({ action: 'create_checkout_session', amount: 150_000 });
  await payments({ action: 'simulate_checkout_payment', id: session.id });

  const api = await payments({ action: 'list_balance_transactions', limit: 50 });
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Balance' }).click();
  await expect(page.getByRole('heading', { name: 'Balance history' })).toBeVisible();
  const rows = page.getByTestId('txn-row');
  await expect(rows).toHaveCount(api.data.length);
  for (const [i, t] of api.data.slice(0, 4).entries()) {
    await expect(rows.nth(i)).toHaveAttribute('data-txn-id', t.id);
    await expect(rows.nth(i)).toHaveAttribute('data-amount', String(t.amount));
    await expect(rows.nth(i)).toHaveAttribute('data-balance-after', String(t.balance_after));
  }
  expect(api.data.slice(0, 4).map((t: JsonAnswer) => [t.type, t.amount, t.source])).toEqual([
    ['checkout_payment', 150_000, session.id],
    ['payout_reversal', 42_000, failed.id],
    ['payout', -42_000, failed.id],
    ['payout', -31_000, paid.id],
  ]);
  expect(api.data[0].balance_after - api.data[3].balance_after).toBe(150_000 + 42_000 - 42_000);
  await expect(rows.nth(1).getByRole('link', { name: failed.id })).toHaveAttribute('href', `/payouts/${failed.id}`);
  await expect(page.getByRole('img', { name: /Available balance over the last 30 days/ })).toBeVisible();
  // The chart's last day is today's closing balance: the newest entry's balance_after, exact.
  await expect(page.getByTestId('chart-day')).toHaveCount(30);
  await expect(page.getByTestId('chart-day').last()).toHaveAttribute('data-balance', String(api.data[0].balance_after));
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Balance' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // The checkout payment's source opens the session's own page.
  await rows.nth(0).getByRole('link', { name: session.id }).click();
  await expect(page.getByRole('heading', { name: session.id })).toBeVisible();
  await expect(page.getByTestId('cs-amount')).toHaveText('IDR 150,000');
  await expect(page.getByTestId('cs-status')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Checkout' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

test('the balance at a moment: a day and a minute on the merchant’s clock, as the API answers it; a moment to come is refused in words', async ({
  signedIn: page,
  payments,
}) => {
  await payments({ action: 'create_test_topup', amount: 7_000 });
  await page.goto('/balance');
  const jakarta = new Date(Date.now() + 7 * 3_600_000);
  const yesterday = new Date(jakarta.getTime() - 86_400_000).toISOString().slice(0, 10);
  // By default the form asks about 23:59 yesterday.
  await expect(page.getByLabel('Day', { exact: true })).toHaveValue(yesterday);
  await expect(page.getByLabel('Time', { exact: true })).toHaveValue('23:59');
  await page.getByRole('button', { name: 'Show balance' }).click();
  const asOf = new Date(Date.parse(`${yesterday}T23:59:59.999+07:00`)).toISOString();
  const answer = page.getByTestId('balance-at-moment');
  await expect(answer).toHaveAttribute('data-as-of', asOf);
  await expect(answer).toHaveAttribute('data-amount', String((await payments({ action: 'get_balance', as_of: asOf })).available));
  await expect(answer).toContainText('23:59:59 WIB');

  // A minute ago, on the merchant's clock: the top-up above may or may not be in it; the page says what the API says.
  const minuteAgo = new Date(jakarta.getTime() - 60_000).toISOString();
  await page.getByLabel('Day', { exact: true }).fill(minuteAgo.slice(0, 10));
  await page.getByLabel('Time', { exact: true }).fill(minuteAgo.slice(11, 16));
  await page.getByRole('button', { name: 'Show balance' }).click();
  const instant = new Date(Date.parse(`${minuteAgo.slice(0, 16)}:59.999+07:00`)).toISOString();
  await expect(answer).toHaveAttribute('data-as-of', instant);
  await expect(answer).toHaveAttribute('data-amount', String((await payments({ action: 'get_balance', as_of: instant })).available));

  // Tomorrow has not come: said in words, nothing asked.
  const tomorrow = new Date(jakarta.getTime() + 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/balance?at_day=${tomorrow}&at_time=12:00`);
  await expect(page.getByRole('alert').filter({ hasText: 'That moment has not come yet' })).toBeVisible();
  await expect(answer).toHaveCount(0);
});
