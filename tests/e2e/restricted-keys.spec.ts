// Restricted keys in the console, as a team uses them: the merchant makes a "Support" key, support signs in with it and can do
// only what it allows, the merchant sees which key did what (payouts, the log, the stored answer of a
// retry-safe request) and revokes the key; rolling the secret key keeps the console signed in.
import type { Browser, Page } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { createMerchant, expect, test, type TestMerchant } from './fixtures';
import { sendPayout, startSession } from './helpers';

async function signInWith(browser: Browser, key: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await startSession(page, key);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** The key the API keys page shows once, after "Create restricted key". */
async function createSupportKey(owner: Page): Promise<string> {
  await owner.goto('/api-keys');
  await owner.getByLabel('Name').fill('Support — Ana');
  await owner.getByRole('checkbox', { name: /payouts:write/ }).check();
  await owner.getByRole('checkbox', { name: /balance:read/ }).check();
  await owner.getByLabel('Payout limit (optional)').fill('100000');
  await owner.getByRole('button', { name: 'Create restricted key' }).click();
  const secret = (await owner.getByTestId('one-time-secret').textContent()) ?? '';
  expect(secret).toMatch(/^rk_test_[0-9A-Za-z]{40}$/);
  await owner.getByRole('button', { name: 'Done' }).click();
  return secret;
}

const apiAs = (key: string) => async (page: Page, body: Record<string, unknown>) =>
  (await page.request.post(`${E2E_API_URL}/v1/index.php`, { headers: { authorization: `Bearer ${key}` }, data: body })).json();

test('a Support key: signed in it sees and does only what it may, the merchant sees what it did and revokes it', async ({ browser }) => {
  test.slow();
  const merchant: TestMerchant = createMerchant(`Keys ${Date.now()}`, 2_000_000);
  const owner = await signInWith(browser, merchant.secretKey);
  await expect(owner.getByTestId('key-label')).toHaveText('Secret key');
  const secret = await createSupportKey(owner);
  const row = owner.getByTestId('api-key-row').filter({ hasText: 'Support — Ana' });
  await expect(row).toContainText('payouts:write');
  await expect(row).toContainText('IDR 100,000');
  await expect(row).toContainText('Never');
  // The secret is gone from the page once dismissed, and the list never shows it.
  await expect(owner.getByText(secret)).toHaveCount(0);

  // Support signs in with the restricted key: the header names it, the console offers only what it allows.
  const support = await signInWith(browser, secret);
  await expect(support.getByTestId('key-label')).toHaveText('Restricted key: Support — Ana');
  await expect(support.getByTestId('merchant-name')).toContainText(merchant.name);
  const nav = support.getByRole('navigation', { name: 'Console', exact: true });
  await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Batch payout', 'Balance', 'Reports']);
  await expect(support.getByTestId('available')).toHaveAttribute('data-amount', '2000000');
  await expect(support.getByRole('heading', { name: 'Payouts', exact: true })).toHaveCount(0);

  // Above the key's payout limit: refused in words, nothing debited.
  await sendPayout(support, { amount: 150_000, bank: 'BCA', account: '1234567890' });
  await expect(support.getByTestId('payout-refused')).toContainText('above the payout limit of the key');
  await support.getByRole('button', { name: 'Edit and try again' }).click();
  await expect(support.getByTestId('available')).toHaveAttribute('data-amount', '2000000');
  await support.getByLabel('Amount').fill('');
  await sendPayout(support, { amount: 25_000, bank: 'BCA', account: '1234567890' });
  await expect(support.getByText(/Payout po_\w+ created/)).toBeVisible();
  const payoutId = (await support.getByRole('status').getByRole('link').textContent())!;

  // The pages it may not use say so; a hand-made request gets the API's 403, never data.
  await support.goto('/api-keys');
  await expect(support.getByTestId('not-permitted')).toContainText('Only the account’s secret key');
  await expect(support.getByTestId('api-key-row')).toHaveCount(0);
  await support.goto('/logs');
  await expect(support.getByTestId('not-permitted')).toContainText('requests:read');
  const forbidden = await support.request.get('/api/api-keys');
  expect(forbidden.status()).toBe(403);
  expect((await forbidden.json()).error.code).toBe('permission_denied');
  expect((await support.request.get('/api/payouts')).status()).toBe(403);

  // The merchant sees which key made the payout: in the payout itself, the log, and the stored answer of its idempotency key.
  const payout = await apiAs(merchant.secretKey)(owner, { action: 'get_payout', id: payoutId });
  expect(payout.created_by).toMatchObject({ key_name: 'Support — Ana', type: 'restricted' });
  await owner.goto('/payouts');
  await expect(owner.locator(`[data-testid="payout-row"][data-payout-id="${payoutId}"]`).getByTestId('created-by')).toHaveText(
    'Support — Ana',
  );
  await owner.goto('/logs?request_action=withdraw');
  const logged = owner.getByTestId('request-row').filter({ hasText: payoutId });
  await expect(logged).toContainText('Support — Ana');
  // By its status attribute: a row's text holds random ids that may contain "403".
  await expect(owner.locator('[data-testid="request-row"][data-status="403"]')).toContainText('payout_limit_exceeded');
  await logged.getByRole('link').first().click();
  await expect(owner.getByTestId('idempotent-request')).toContainText(payoutId);
  await expect(owner.getByTestId('replay-count')).toHaveText('Never');
  await owner.goto('/api-keys');
  await expect(row).not.toContainText('Never'); // its last use is recorded

  // Revoked: the support session ends at its next request, and the key no longer signs in.
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Revoke “Support — Ana” now' }).click();
  await expect(row).toHaveCount(0);
  // Its next request ends the session: this navigation, or a poll of the page it is on if that comes first (then the
  // page's own move to /login interrupts this one).
  await support.goto('/dashboard').catch((error: unknown) => {
    if (!/interrupted by another navigation/.test(String(error))) throw error;
  });
  await expect(support).toHaveURL(/\/login\?ended=1$/);
  await support.getByLabel('API key').fill(secret);
  await support.getByRole('button', { name: 'Sign in' }).click();
  await expect(support.getByText('That API key was not accepted. Check it and try again.')).toBeVisible();
});

test('rolling the secret key in the console: the new key is shown once, the console carries on with it, the old one works until its expiry', async ({
  browser,
}) => {
  const merchant = createMerchant(`Roll ${Date.now()}`, 1_000_000);
  const owner = await signInWith(browser, merchant.secretKey);
  await owner.goto('/api-keys');
  await owner.getByLabel('The old key keeps working for').selectOption({ label: '1 hour' });
  await owner.getByRole('button', { name: 'Roll secret key…' }).click();
  await expect(owner.getByText('The current secret key stops working in 1 hour.')).toBeVisible();
  await owner.getByRole('button', { name: 'Roll the secret key' }).click();
  const fresh = (await owner.getByTestId('one-time-secret').textContent()) ?? '';
  expect(fresh).toMatch(/^sk_test_/);
  expect(fresh).not.toBe(merchant.secretKey);

  // Both keys work now; the list shows the old one's expiry.
  expect((await apiAs(merchant.secretKey)(owner, { action: 'get_balance' })).available).toBe(1_000_000);
  expect((await apiAs(fresh)(owner, { action: 'get_balance' })).available).toBe(1_000_000);
  await owner.getByRole('button', { name: 'Done' }).click();
  await expect(owner.getByTestId('api-key-row').filter({ hasText: 'works until' })).toHaveCount(1);
  // The console moved to the new key: revoking the old one does not end this session.
  const old = owner.getByTestId('api-key-row').filter({ hasText: 'works until' });
  await old.getByRole('button', { name: 'Revoke' }).click();
  await old.getByRole('button', { name: /^Revoke “Secret key” now$/ }).click();
  await expect(owner.getByTestId('api-key-row')).toHaveCount(1);
  await owner.goto('/dashboard');
  await expect(owner.getByTestId('available')).toHaveAttribute('data-amount', '1000000');
  const gone = await owner.request.post(`${E2E_API_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${merchant.secretKey}` },
    data: { action: 'get_balance' },
  });
  expect(gone.status()).toBe(401);
});
