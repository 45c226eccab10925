// Form messages, in words, one for each invalid field (the payout form's are in payouts.spec.ts).
import { expect, test } from './fixtures';

test('the checkout form explains each invalid amount in the merchant’s terms', async ({ signedInBlank: page }) => {
  await page.goto('/checkout-sessions');
  await expect(page.getByRole('heading', { name: 'New checkout session' })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create checkout session' });
  const alert = page.getByRole('alert').filter({ hasText: /./ });
  await create.click();
  await expect(alert).toHaveText('Enter an amount.');
  for (const [typed, message] of <[string, string][]>[
    ['12.5', 'Amount must be a whole number of rupiah, without decimals.'],
    ['500', 'Amount must be at least IDR 1,000.'],
    ['1000000001', 'Amount must be at most IDR 1,000,000,000.'],
  ]) {
    await page.getByLabel('Amount (IDR)').fill(typed);
    await create.click();
    await expect(alert).toHaveText(message);
  }
  await page.getByLabel('Amount (IDR)').fill('150000');
  await expect(page.getByLabel('Amount (IDR)')).toHaveValue('150,000');
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/checkout-sessions'));
  await create.click();
  expect((await sent).postDataJSON().amount).toBe(150_000);
  await expect(page.getByRole('status').getByTestId('checkout-link')).toBeVisible();
});

test('the restricted key form explains each invalid field, and sends the payout limit as an exact integer', async ({
  signedInBlank: page,
}) => {
  await page.goto('/api-keys');
  const create = page.getByRole('button', { name: 'Create restricted key' });
  const alert = page.getByRole('alert').filter({ hasText: /./ });
  await create.click();
  await expect(alert).toHaveText('Give the key a name of 1 to 100 characters, such as “Support — Ana”.');
  await page.getByLabel('Name').fill('Reports');
  await create.click();
  await expect(alert).toHaveText('Choose at least one permission.');
  await page.getByRole('checkbox', { name: /balance:read/ }).check();
  await page.getByLabel('Payout limit (optional)').fill('12.5');
  await create.click();
  await expect(alert).toHaveText('The payout limit must be a whole number of rupiah, at least 1.');
  await page.getByLabel('Payout limit (optional)').fill('2500000');
  await expect(page.getByLabel('Payout limit (optional)')).toHaveValue('2,500,000');
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/api-keys'));
  await create.click();
  expect((await sent).postDataJSON()).toMatchObject({ name: 'Reports', permissions: ['balance:read'], max_payout_amount: 2_500_000 });
  await expect(page.getByTestId('one-time-secret')).toHaveText(/^rk_test_/);
});

test('the webhook form explains each invalid field, and sends nothing until they are right', async ({ signedInBlank: page }) => {
  await page.goto('/webhooks');
  const add = page.getByRole('button', { name: 'Add endpoint' });
  const alert = page.getByRole('alert').filter({ hasText: /./ });
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/api/webhook-endpoints') && posts.push(r.url()));
  await add.click();
  await expect(alert).toHaveText('Enter the address your receiver listens on, such as https://example.com/webhooks.');
  await page.getByLabel('URL').fill('ftp://example.com/hooks');
  await add.click();
  await expect(alert).toHaveText('The address must be a full http:// or https:// URL, such as https://example.com/webhooks.');
  await page.getByLabel('URL').fill('http://127.0.0.1:9/hooks');
  await page.getByLabel('All events').uncheck();
  await add.click();
  await expect(alert).toHaveText('Choose at least one event, or all of them.');
  expect(posts).toEqual([]);
});
