import { expect, test } from '@playwright/test';
import { api, available, expectAvailable, payoutsWithAmount, sendPayout, signIn } from './helpers';

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

test('the form checks its fields with the API schema before anything is sent', async ({ page }) => {
  await signIn(page);
  let posts = 0;
  page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith('/api/payouts') && posts++));
  await page.getByLabel('Amount').fill('12.5');
  await page.getByLabel('Bank code').fill('NOPE');
  await page.getByLabel('Account number').fill('12ab');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(page.getByText('amount must be an integer')).toBeVisible();
  await expect(page.getByText(/bank_code must be one of/)).toBeVisible();
  await expect(page.getByText('account_number must be 6 to 20 digits')).toBeVisible();
  await page.getByLabel('Amount').fill('5');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(page.getByText('amount must be at least 10000')).toBeVisible();
  expect(posts).toBe(0);
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
  await expect(page.getByText(/Outcome unknown/)).toBeVisible();
  await expect(page.getByTestId('replayed')).toBeVisible({ timeout: 15_000 });

  expect(bodies.length).toBeGreaterThanOrEqual(2);
  expect(new Set(bodies.map((b) => b.idempotency_key)).size).toBe(1);
  expect(await payoutsWithAmount(request, 123_456)).toHaveLength(1);
  await expectAvailable(page, before - 123_456);
});

test('a double click sends one payout', async ({ page, request }) => {
  await signIn(page);
  await page.getByLabel('Amount').fill('111111');
  await page.getByLabel('Bank code').fill('BRI');
  await page.getByLabel('Account number').fill('5555666677');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await page.getByRole('button', { name: 'Send payout' }).dblclick();
  await expect(page.getByText(/Payout po_\w+ created/)).toBeVisible();
  expect(await payoutsWithAmount(request, 111_111)).toHaveLength(1);
});

test('a payout to a failing test account ends failed, with its reason, and the balance is restored', async ({ page }) => {
  await signIn(page);
  const before = await available(page);
  await expect(page.getByText('4000000001')).toBeVisible(); // the test accounts are shown next to the form
  await sendPayout(page, { amount: 77_000, bank: 'MANDIRI', account: '4000000001' });
  await expect(page.getByText(/Payout po_\w+ created: pending/)).toBeVisible();

  const row = page.getByTestId('payout-row').first();
  await expect(row).toContainText('IDR 77,000');
  await expect(row).toHaveAttribute('data-status', 'failed');
  await expectAvailable(page, before);

  await row.getByRole('link', { name: 'Details' }).click();
  await expect(page.getByTestId('payout-status')).toHaveText('failed');
  await expect(page.getByTestId('failure-reason')).toContainText('invalid_account');
});

test('the payouts page filters by status', async ({ page, request }) => {
  await api(request, { action: 'withdraw', amount: 20_000, bank_code: 'BCA', account_number: '4000000003' }, `slow-${Date.now()}`);
  await signIn(page);
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
