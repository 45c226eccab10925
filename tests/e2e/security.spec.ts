import { expect, test } from '@playwright/test';
import { BASE_URL, DEMO_KEY, payoutsWithAmount, sendPayout, signInWithForm, startSession } from './helpers';

test('the secret key never reaches the browser: no response body, header, cookie, storage or DOM holds it', async ({ page, context }) => {
  const seen: string[] = [];
  const reads: Promise<void>[] = [];
  const watch = (res: import('@playwright/test').Response) => {
    reads.push(
      (async () => {
        seen.push(`${res.url()} ${JSON.stringify(await res.allHeaders())}`);
        // Redirects and aborted loads have no body to read.
        seen.push(await res.text().catch(() => ''));
      })(),
    );
  };
  page.on('response', watch);

  // Through the form: the sign-in page, its request and the page it sends the browser on to are watched too.
  await signInWithForm(page);
  await sendPayout(page, { amount: 31_337, bank: 'BSI', account: '1122334455' });
  await expect(page.getByText(/Payout po_\w+ created/)).toBeVisible();
  for (const path of ['/payouts', '/checkout-sessions', '/dashboard']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }

  // Stop watching while the page is open (the dashboard keeps polling), then finish every read.
  page.off('response', watch);
  await Promise.all(reads);

  // The key and its random part alone (in case something strips the prefix).
  const needles = [DEMO_KEY, DEMO_KEY.slice('sk_test_'.length)];
  const cookies = await context.cookies();
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  const dom = await page.content();
  const inputs = await page.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value).join(' '));
  expect(seen.length).toBeGreaterThan(10);
  for (const needle of needles) {
    for (const text of seen) expect(text).not.toContain(needle);
    for (const c of cookies) expect(c.value).not.toContain(needle);
    expect(storage).not.toContain(needle);
    expect(dom).not.toContain(needle);
    expect(inputs).not.toContain(needle);
  }
});

test('a cross-origin POST to the payout route is refused and sends nothing', async ({ page, request }) => {
  await startSession(page);
  // Another port on the same host: the same site, so the SameSite=Strict cookie goes along.
  const evil = BASE_URL.replace(/:(\d+)$/, (_m, p) => `:${Number(p) + 1}`);
  await page.route(`${evil}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>evil</title>' }));
  await page.goto(`${evil}/`);

  const refused = page.waitForResponse((r) => r.url() === `${BASE_URL}/api/payouts` && r.request().method() === 'POST');
  // The classic forgery: a form that posts itself. text/plain needs no preflight, and the cookie goes along.
  await page.evaluate((target) => {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = `${target}/api/payouts`;
    form.enctype = 'text/plain';
    const field = document.createElement('input');
    field.name = '{"amount":66666,"bank_code":"BCA","account_number":"1234567890","idempotency_key":"evil-key-0001","x":"';
    field.value = '"}';
    form.append(field);
    document.body.append(form);
    form.submit();
  }, BASE_URL);
  const response = await refused;
  expect(await response.request().headerValue('cookie')).toContain('console_session=');
  expect(response.status()).toBe(403);
  expect((await response.json()).error.code).toBe('cross_origin_request');

  // The same with a JSON body and the signed-in cookie, as a browser bug or plug-in might send it.
  const cookie = (await page.context().cookies(BASE_URL)).map((c) => `${c.name}=${c.value}`).join('; ');
  const forged = await request.post('/api/payouts', {
    headers: { cookie, origin: evil, 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
    data: { amount: 66_666, bank_code: 'BCA', account_number: '1234567890', idempotency_key: 'evil-key-0002' },
  });
  expect(forged.status()).toBe(403);
  expect(await payoutsWithAmount(request, 66_666)).toHaveLength(0);
});

test('state-changing routes refuse bodies that are not JSON', async ({ page }) => {
  await startSession(page);
  const res = await page.request.post('/api/payouts', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'amount=50000&bank_code=BCA&account_number=1234567890&idempotency_key=form-key-0001',
  });
  expect(res.status()).toBe(415);
  expect((await res.json()).error).toMatchObject({ code: 'unsupported_media_type', param: 'content-type' });
});

test('bad input gets a 4xx naming the field', async ({ page }) => {
  await startSession(page);
  const res = await page.request.post('/api/payouts', {
    data: { amount: 1.5, bank_code: 'BCA', account_number: '1234567890', idempotency_key: 'bad-amount-0001' },
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).error).toMatchObject({ code: 'invalid_request', param: 'amount' });
});

test('every page carries a CSP with a nonce, frame-ancestors none, a referrer policy and nosniff', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && /Content Security Policy/i.test(m.text()) && violations.push(m.text())));
  for (const path of ['/login', '/checkout/cs_doesnotexist']) {
    const res = await page.goto(path);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-content-type-options']).toBe('nosniff');
  }
  // The page's own scripts run under that policy: the sign-in form works, and nothing was blocked.
  await signInWithForm(page);
  await page.goto('/payouts');
  await expect(page.getByLabel('Status')).toBeVisible();
  expect(violations).toEqual([]);
});
