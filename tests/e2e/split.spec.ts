// The split arrangement (E2E_SPLIT=1): the console is `next start` on its own (no start script of ours),
// in front of a payment API started separately; it holds no payment API and no checkout sessions.
// playwright.config.ts runs this file only in that arrangement.
import { expect, test } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { api, available, BASE_URL, DEMO_KEY, expectAvailable, payoutsWithAmount, sendPayout, signInWithForm } from './helpers';

test('`next start` with PAYMENT_API_BASE_URL serves the console: sign-in, the balance, a payout made on the API', async ({
  page,
  request,
}) => {
  // Next's own server: npm start's app server would answer its health check here.
  expect((await request.get(`${BASE_URL}/healthz`)).status()).toBe(404);
  await signInWithForm(page);
  const before = await available(page);
  await sendPayout(page, { amount: 120_000, bank: 'BCA', account: '1234567890' });
  await expect(page.getByText(/Payout po_\w+ created/)).toBeVisible();
  await expectAvailable(page, before - 120_000);
  // The payout is the API's: asked of the API itself, not of the console.
  expect(await payoutsWithAmount(request, 120_000)).toHaveLength(1);
  const balance = await api<{ available: number }>(request, { action: 'get_balance' });
  expect(balance.available).toBe(before - 120_000);
});

test('the console-only process serves no API and no hosted checkout page: both are where the API runs', async ({ request, page }) => {
  const res = await request.post(`${BASE_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
    data: { action: 'get_balance' },
  });
  expect(res.status()).toBe(404);
  expect((await res.json()).error.message).toContain(E2E_API_URL);

  const session = await api(request, { action: 'create_checkout_session', amount: 9_000 });
  expect(session.url.startsWith(`${E2E_API_URL}/checkout/`)).toBe(true);
  expect((await page.goto(`${BASE_URL}/checkout/${session.id}`))?.status()).toBe(404);
  await page.goto(session.url);
  await expect(page.getByTestId('checkout-amount')).toHaveText('IDR 9,000');
});
