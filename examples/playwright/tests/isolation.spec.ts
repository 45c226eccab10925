import { expect, test } from 'merchant-payments-playwright';

test("each worker's sandbox sees only its own payouts", async ({ payments, sandbox }) => {
  const { data: mine } = await payments.withdraw({ amount: 10_000, bank_code: 'BRI', account_number: '1111222233' });
  const { data: list } = await payments.listPayouts({ limit: 100 });
  expect(list.data.map((p) => p.id)).toContain(mine.id);
  const { data: key } = await payments.getCurrentKey();
  expect(key.merchant.id).toBe(sandbox.merchant_id);
});

test('the console shows the sandbox, marked as one', async ({ consolePage, sandbox }) => {
  await consolePage.goto('/dashboard');
  await expect(consolePage.getByRole('heading', { name: 'Balance' })).toBeVisible();
  await expect(consolePage.getByTestId('sandbox-banner')).toContainText('Sandbox');
  await expect(consolePage.getByText(sandbox.name).first()).toBeVisible();
});
