import { expect, test } from '@playwright/test';
import { api, available, expectAvailable, payoutsWithAmount, sendPayout, signIn, startSession } from './helpers';

test('a payout is sent, appears in the list, and the balance drops by its amount', async ({ page, request }) => {
  await signIn(page);
  const before = await available(page);
  await sendPayout(page, { amount: 150_000, bank: 'BCA', account: '1234567890' });
  await expect(page.getByText(/Payout po_\w+ created/)).toBeVisible();
  await expectAvailable(page, before - 150_000);

  const row = page.getByTestId('payout-row').first();
  await expect(row).toContainText('IDR 150,000');
  await expect(row).toContainText('•••• 7890');
  // Settles by itself (SETTLEMENT_DELAY_SECONDS=1) and the list follows.
  await expect(row).toHaveAttribute('data-status', 'paid');
  expect(await payoutsWithAmount(request, 150_000)).toHaveLength(1);
});

test('the form checks its fields with the API schema before anything is sent, in words', async ({ page }) => {
  await signIn(page);
  let posts = 0;
  page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith('/api/payouts') && posts++));
  const error = (field: string) => page.getByTestId(`payout-${field}-error`);
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(error('amount')).toHaveText('Enter an amount.');
  await expect(error('bank_code')).toHaveText('Choose the bank from the list.');
  await expect(error('account_number')).toHaveText('Enter the account number.');
  await expect(page.getByLabel('Amount (IDR)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Amount').fill('12.5');
  await page.getByLabel('Account number').fill('12ab');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(error('amount')).toHaveText('Amount must be a whole number of rupiah, without decimals.');
  await expect(error('account_number')).toHaveText('Account number must be 6 to 20 digits, with no letters.');
  await page.getByLabel('Amount').fill('5');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(error('amount')).toHaveText('Amount must be at least IDR 10,000.');
  await page.getByLabel('Amount').fill('100000001');
  await expect(page.getByLabel('Amount')).toHaveValue('100,000,001');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(error('amount')).toHaveText('Amount must be at most IDR 100,000,000.');
  expect(posts).toBe(0);
});

test('the amount shows IDR and thousands, and the exact integer is sent; the bank is a select of the supported banks', async ({ page }) => {
  await signIn(page);
  await expect(page.getByLabel('Bank', { exact: true }).locator('option')).toHaveText([
    'Choose a bank…',
    'Bank Central Asia (BCA)',
    'Bank Negara Indonesia (BNI)',
    'Bank Rakyat Indonesia (BRI)',
    'Bank Mandiri',
    'Bank Permata',
    'CIMB Niaga',
    'Bank Syariah Indonesia (BSI)',
    'Bank Danamon',
  ]);
  await page.getByLabel('Amount').pressSequentially('1234567');
  await expect(page.getByLabel('Amount')).toHaveValue('1,234,567');
  await page.getByLabel('Bank', { exact: true }).selectOption('MANDIRI');
  await page.getByLabel('Account number').fill('1234567890');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(page.getByTestId('confirm-amount')).toHaveText('IDR 1,234,567');
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/payouts'));
  await page.getByRole('button', { name: 'Send payout' }).click();
  const body = (await sent).postDataJSON();
  expect(body.amount).toBe(1_234_567);
  expect(body.bank_code).toBe('MANDIRI');
});

test('a refusal from the API is said in words, with its code as a detail', async ({ page }) => {
  await signIn(page);
  await page.route('**/api/payouts', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: JSON.stringify({ error: { type: 'invalid_request_error', code: 'insufficient_funds', message: 'insufficient funds' } }),
        })
      : route.continue(),
  );
  await page.getByLabel('Amount').fill('20000');
  await page.getByLabel('Bank', { exact: true }).selectOption('BCA');
  await page.getByLabel('Account number').fill('1234567890');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.getByTestId('payout-refused')).toHaveText(
    'The payout was refused: Your available balance does not cover this amount.(code: insufficient_funds)',
  );
});

test('a lost response: the UI says the outcome is unknown, retries with the same key, and one payout exists', async ({ page, request }) => {
  await signIn(page);
  const before = await available(page);
  const bodies: { idempotency_key: string }[] = [];
  let dropped = false;
  await page.route('**/api/payouts', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    bodies.push(route.request().postDataJSON());
    if (dropped) return route.continue();
    dropped = true;
    // The server carries the payout out; the browser never hears back.
    const response = await route.fetch();
    expect(response.status()).toBe(200);
    await route.abort('connectionreset');
  });

  await sendPayout(page, { amount: 123_456, bank: 'BNI', account: '9876543210' });
  // The one retry layer says which attempt it is on (console/browser/queries/retry-policy.ts).
  await expect(page.getByText(/Outcome unknown: the response was lost\. Still trying, attempt 2 of 4/)).toBeVisible();
  await expect(page.getByTestId('replayed')).toBeVisible({ timeout: 15_000 });

  expect(bodies.length).toBeGreaterThanOrEqual(2);
  expect(new Set(bodies.map((b) => b.idempotency_key)).size).toBe(1);
  expect(await payoutsWithAmount(request, 123_456)).toHaveLength(1);
  await expectAvailable(page, before - 123_456);
});

test('a double click sends one payout', async ({ page, request }) => {
  await signIn(page);
  await page.getByLabel('Amount').fill('111111');
  await page.getByLabel('Bank', { exact: true }).selectOption('BRI');
  await page.getByLabel('Account number').fill('5555666677');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await page.getByRole('button', { name: 'Send payout' }).dblclick();
  await expect(page.getByText(/Payout po_\w+ created/)).toBeVisible();
  expect(await payoutsWithAmount(request, 111_111)).toHaveLength(1);
});

test('a payout to a failing test account ends failed, with its reason, and the balance is restored', async ({ page }) => {
  await signIn(page);
  const before = await available(page);
  await expect(page.getByText('4000000002')).toBeVisible(); // the test accounts are shown next to the form
  await sendPayout(page, { amount: 77_000, bank: 'MANDIRI', account: '4000000002' });
  await expect(page.getByText(/Payout po_\w+ created: pending/)).toBeVisible();

  const row = page.getByTestId('payout-row').first();
  await expect(row).toContainText('IDR 77,000');
  await expect(row).toHaveAttribute('data-status', 'failed');
  await expectAvailable(page, before);

  await row.getByRole('link', { name: 'Details' }).click();
  await expect(page.getByTestId('payout-status')).toHaveText('failed');
  await expect(page.getByTestId('failure-reason')).toContainText('rejected_by_bank');
});

test("the form looks the account up: the holder's name before the review, an account the bank does not know blocks it", async ({
  page,
}) => {
  await signIn(page);
  await page.getByLabel('Amount').fill('12000');
  await page.getByLabel('Bank', { exact: true }).selectOption('BCA');
  await page.getByLabel('Account number').fill('1234567890');
  await expect(page.getByTestId('account-holder')).toHaveText('Budi Santoso');
  await page.getByLabel('Account number').fill('4000000001');
  await expect(page.getByTestId('account-invalid')).toContainText('does not exist');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(page.getByTestId('account-holder-error')).toContainText('does not exist at the bank');
  await expect(page.getByRole('button', { name: 'Send payout' })).toHaveCount(0);
});

test('the payouts page filters by status', async ({ page, request }) => {
  await api(request, { action: 'withdraw', amount: 20_000, bank_code: 'BCA', account_number: '4000000003' }, `slow-${Date.now()}`);
  await startSession(page);
  await page.goto('/payouts');
  await page.getByLabel('Status').selectOption('pending');
  await expect(page.getByTestId('payout-row').first()).toBeVisible();
  for (const row of await page.getByTestId('payout-row').all()) await expect(row).toHaveAttribute('data-status', 'pending');
  await page.getByLabel('Status').selectOption('failed');
  await expect(page.getByTestId('payout-row').first()).toHaveAttribute('data-status', 'failed');
});

test('a reload while the payout is in flight resumes it with the same key: one payout', async ({ page, request }) => {
  await signIn(page);
  const keys: string[] = [];
  let processed!: () => void;
  const serverDone = new Promise<void>((resolve) => (processed = resolve));
  await page.route('**/api/payouts', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().postDataJSON().idempotency_key);
    if (keys.length > 1) return route.continue();
    await route.fetch(); // the server carries it out; the page is reloaded before it hears back
    processed();
  });

  await sendPayout(page, { amount: 222_222, bank: 'CIMB', account: '3141592653' });
  await serverDone;
  await page.reload();
  await expect(page.getByTestId('replayed')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect(await payoutsWithAmount(request, 222_222)).toHaveLength(1);
});

test('an unanswered payout intent older than the key retention is shown, never resent', async ({ page, request }) => {
  await signIn(page);
  const before = await payoutsWithAmount(request, 313_131);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/payouts') && r.method() === 'POST') sent.push(r.postData() ?? '');
  });
  // Left by a tab two days ago (the retention here is a day): its key may have been forgotten by the API.
  await page.evaluate(() =>
    sessionStorage.setItem(
      'console.payout-intent',
      JSON.stringify({
        vars: { amount: 313_131, bank_code: 'BCA', account_number: '2718281828', idempotency_key: crypto.randomUUID() },
        storedAt: Date.now() - 2 * 86_400_000,
      }),
    ),
  );
  await page.reload();
  await expect(page.getByTestId('stale-intent')).toContainText('313,131');
  await expect(page.getByTestId('stale-intent')).toContainText('•••• 1828');
  await page.getByRole('button', { name: /dismiss/i }).click();
  await expect(page.getByTestId('stale-intent')).toHaveCount(0);
  expect(sent).toEqual([]);
  expect(await payoutsWithAmount(request, 313_131)).toHaveLength(before.length);
  expect(await page.evaluate(() => sessionStorage.getItem('console.payout-intent'))).toBeNull();
});
