// With JavaScript disabled (a slow network, a blocked bundle), pressing Enter in a form must not send
// the secret key, a card number or an account number anywhere: not in a URL, not in a body.
import { expect, test, type Page } from '@playwright/test';
import { api, BASE_URL, DEMO_KEY } from './helpers';

const CARD = '4242424242424242';
const ACCOUNT = '9988776655';

function recordRequests(page: Page) {
  const seen: string[] = [];
  page.on('request', (r) => seen.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
  return seen;
}

async function expectSafeForm(page: Page) {
  const form = page.locator('form').first();
  await expect(form).toHaveAttribute('method', 'post');
  await expect(form).toHaveAttribute('action', /^\/api\/no-script\?back=/);
  expect(await form.locator('input[name]').count()).toBe(0);
  await expect(form.locator('button[type="submit"]')).toBeDisabled();
}

test.describe('forms before their script runs', () => {
  test.use({ javaScriptEnabled: false });

  test('sign-in: Enter sends nothing; the key is in no URL and no body', async ({ page }) => {
    const seen = recordRequests(page);
    await page.goto('/login');
    await expectSafeForm(page);
    await page.getByLabel('API key').fill(DEMO_KEY);
    await page.getByLabel('API key').press('Enter');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    expect(page.url()).toBe(`${BASE_URL}/login`);
    expect(seen.filter((s) => s.includes(DEMO_KEY))).toEqual([]);
  });

  test('hosted checkout: Enter sends no card number', async ({ page, request }) => {
    const session = await api(request, { action: 'create_checkout_session', amount: 12_000 });
    const seen = recordRequests(page);
    // The hosted page is the API's (another process when the console runs against a separate API).
    await page.goto(session.url);
    await expectSafeForm(page);
    await page.getByLabel('Card number').fill(CARD);
    await page.getByLabel('Card number').press('Enter');
    expect(page.url()).toBe(session.url);
    expect(seen.filter((s) => s.includes(CARD))).toEqual([]);
  });

  test('payout form: Enter sends no account number', async ({ page, context, request }) => {
    const signIn = await request.post(`${BASE_URL}/api/session`, { data: { secretKey: DEMO_KEY } });
    expect(signIn.status()).toBe(200);
    await context.addCookies((await request.storageState()).cookies);
    const seen = recordRequests(page);
    await page.goto('/dashboard');
    await expectSafeForm(page);
    await page.getByLabel('Account number').fill(ACCOUNT);
    await page.getByLabel('Account number').press('Enter');
    expect(page.url()).toBe(`${BASE_URL}/dashboard`);
    expect(seen.filter((s) => s.includes(ACCOUNT))).toEqual([]);
  });
});

test('a form posted without its script anyway is refused and sent back, with nothing done', async ({ request }) => {
  const res = await request.post(`${BASE_URL}/api/no-script?back=/login`, { form: { anything: 'x' }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
  expect(res.headers().location).toBe('/login');
  const away = await request.post(`${BASE_URL}/api/no-script?back=//evil.example`, { maxRedirects: 0 });
  expect(away.headers().location).toBe('/');
});
