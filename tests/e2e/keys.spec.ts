// A console session ends with its key: rolling the key sends the browser to the sign-in page with a
// message, once (no bounce between /login and /dashboard), and the new key signs in at once. Works in
// both arrangements: the console learns it from the API's 401, not from the API's database.
import { signIn } from './helpers';
import { createMerchant, expect, merchantApi, test } from './fixtures';

test('a rolled key ends its console session at the next request: /login with a message, no redirect loop', async ({ page, request }) => {
  const merchant = createMerchant(`Roller ${Date.now()}`, 1_000_000);
  await signIn(page, merchant.secretKey);
  await expect(page.getByTestId('available')).toBeVisible();

  // Off the console while the key is rolled: its polling would notice first (and end the session just the
  // same); here the next request is a page of the console's, rendered on the server.
  await page.goto('about:blank');
  const rolled = await merchantApi(request, merchant)({ action: 'roll_secret_key' });
  const fresh = rolled.secret as string;

  const hops: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) hops.push(new URL(frame.url()).pathname);
  });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?ended=1$/);
  await expect(page.getByTestId('session-ended')).toBeVisible();
  // It stays there: the session ended with the key, so the sign-in page does not send it back.
  await page.reload();
  await expect(page).toHaveURL(/\/login\?ended=1$/);
  // No bounce: once on the sign-in page, never back to the dashboard (Next's own same-page history updates aside).
  const firstLogin = hops.indexOf('/login');
  expect(firstLogin).toBeGreaterThan(-1);
  expect(hops.slice(firstLogin)).not.toContain('/dashboard');

  await signIn(page, fresh);
  await expect(page.getByTestId('available')).toBeVisible();
});
