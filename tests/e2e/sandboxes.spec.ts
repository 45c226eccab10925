// Sandboxes in the console: the parent sees its sandboxes, resets one (its payouts gone, its balance back) and
// deletes one (its key answers 401 at once); a session signed in with a sandbox's key says so on every page.
import { E2E_API_URL } from '../../playwright.config';
import { createMerchant, expect, merchantApi, test } from './fixtures';
import { signIn } from './helpers';

test("the parent resets and deletes its sandboxes; a sandbox's session is marked as one", async ({ page, request, browser }) => {
  const merchant = createMerchant(`Sandboxes ${Date.now()}`, 1_000_000);
  const owner = merchantApi(request, merchant);
  const kept = await owner({ action: 'create_sandbox', name: 'Checkout flow tests', balance: 500_000 });
  const doomed = await owner({ action: 'create_sandbox', name: 'Playwright worker 3', test_clock: true });
  const asKept = merchantApi(request, { id: kept.merchant_id, name: kept.name, secretKey: kept.secret_key });
  await asKept({ action: 'withdraw', amount: 50_000, bank_code: 'BCA', account_number: '1234567890' });

  await signIn(page, merchant.secretKey);
  await expect(page.getByTestId('sandbox-banner')).toHaveCount(0);
  await page.getByRole('link', { name: 'Sandboxes' }).first().click();
  const keptRow = page.getByTestId('sandbox-row').filter({ hasText: 'Checkout flow tests' });
  await expect(keptRow).toContainText('IDR 500,000');
  await expect(keptRow).toContainText('Real time');
  await keptRow.getByRole('button', { name: 'Reset' }).click();
  await keptRow.getByRole('button', { name: 'Wipe “Checkout flow tests” now' }).click();
  await expect(keptRow.getByRole('button', { name: 'Reset' })).toBeVisible();
  expect((await asKept({ action: 'list_payouts' })).data).toEqual([]);
  expect((await asKept({ action: 'get_balance' })).available).toBe(500_000);

  const doomedRow = page.getByTestId('sandbox-row').filter({ hasText: 'Playwright worker 3' });
  await doomedRow.getByRole('button', { name: 'Delete' }).click();
  await doomedRow.getByRole('button', { name: 'Delete “Playwright worker 3” now' }).click();
  await expect(doomedRow).toHaveCount(0);
  const refused = await request.post(`${E2E_API_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${doomed.secret_key}` },
    data: { action: 'get_balance' },
  });
  expect(refused.status()).toBe(401);

  // Signed in with the sandbox's own key: the banner on every page.
  const sandboxPage = await (await browser.newContext()).newPage();
  await signIn(sandboxPage, kept.secret_key);
  await expect(sandboxPage.getByTestId('sandbox-banner')).toContainText('Sandbox');
  await sandboxPage.goto('/payouts');
  await expect(sandboxPage.getByTestId('sandbox-banner')).toBeVisible();
});
