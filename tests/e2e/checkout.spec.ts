import { expect, test } from '@playwright/test';
import { api, available, expectAvailable, signIn } from './helpers';

test('a checkout session created in the console, paid on the hosted page in a second page, raises the balance', async ({
  page,
  browser,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Checkout' }).click();
  // The dashboard has an "Amount" field too: wait for the checkout page before typing.
  await expect(page.getByRole('heading', { name: 'New checkout session' })).toBeVisible();
  await page.getByLabel('Amount').fill('250000');
  await page.getByLabel('Description').fill('E2E order #1');
  await page.getByRole('button', { name: 'Create checkout session' }).click();
  const link = page.getByRole('status').getByTestId('checkout-link');
  await expect(link).toBeVisible();
  const url = (await link.getAttribute('href'))!;
  expect(url).toMatch(/\/checkout\/cs_\w+$/);
  await expect(page.getByTestId('checkout-row').first()).toHaveAttribute('data-status', 'open');

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Balance' })).toBeVisible();
  const before = await available(page);

  // The customer: another browser, no console session.
  const customer = await browser.newContext();
  const pay = await customer.newPage();
  const staleTab = await customer.newPage();
  await pay.goto(url);
  await staleTab.goto(url);
  await expect(pay.getByText('Pay Demo Store')).toBeVisible();
  await expect(pay.getByText('E2E order #1')).toBeVisible();
  await expect(pay.getByTestId('checkout-amount')).toHaveText('IDR 250,000');

  await pay.getByLabel('Card number').fill('4000 0000 0000 0002');
  await pay.getByRole('button', { name: /^Pay / }).click();
  await expect(pay.getByRole('alert').filter({ hasText: 'declined' })).toBeVisible();

  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByRole('button', { name: /^Pay / }).click();
  await expect(pay.getByText('Payment complete')).toBeVisible();

  await expectAvailable(page, before + 250_000);

  // Paying the completed session again is refused: from the tab opened before, and after a reload.
  await staleTab.getByLabel('Card number').fill('4242424242424242');
  await staleTab.getByRole('button', { name: /^Pay / }).click();
  await expect(staleTab.getByRole('alert').filter({ hasText: 'no longer open' })).toBeVisible();
  await pay.reload();
  await expect(pay.getByText('already been paid')).toBeVisible();
  await expect(pay.getByLabel('Card number')).toHaveCount(0);
  const again = await pay.request.post(`${url.replace(/\/checkout\//, '/api/checkout/')}/pay`, {
    data: { card_number: '4242424242424242' },
  });
  expect(again.status()).toBe(409);
  await expectAvailable(page, before + 250_000);
  await customer.close();

  await page.goto('/checkout-sessions');
  await expect(page.getByTestId('checkout-row').first()).toHaveAttribute('data-status', 'complete');
});

test('a paid session sends the customer on to its success_url', async ({ browser, request }) => {
  const session = await api(
    request,
    { action: 'create_checkout_session', amount: 5_000, success_url: 'https://shop.example/thanks' },
    `cs-${Date.now()}`,
  );
  const customer = await browser.newContext();
  const pay = await customer.newPage();
  await pay.route('https://shop.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Thanks from the shop</h1>' }));
  await pay.goto(session.url);
  await pay.getByLabel('Card number').fill('4242424242424242');
  await pay.getByRole('button', { name: /^Pay / }).click();
  await expect(pay).toHaveURL('https://shop.example/thanks');
  await customer.close();
});

test('an expired session cannot be paid', async ({ page, request }) => {
  const session = await api(request, { action: 'create_checkout_session', amount: 7_000 }, `cs-exp-${Date.now()}`);
  await api(request, { action: 'expire_checkout_session', id: session.id }, `cs-exp2-${Date.now()}`);
  await page.goto(session.url);
  await expect(page.getByText('has expired')).toBeVisible();
  // The hosted page's own route, where the page is served (the API's side).
  const res = await page.request.post(new URL(`/api/checkout/${session.id}/pay`, session.url).href, {
    data: { card_number: '4242424242424242' },
  });
  expect(res.status()).toBe(409);
});
