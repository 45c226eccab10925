// The split arrangement (E2E_SPLIT=1): the console process holds no payment API and no checkout sessions.
// playwright.config.ts runs this file only in that arrangement.
import { expect, test } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { api, BASE_URL, DEMO_KEY } from './helpers';

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
