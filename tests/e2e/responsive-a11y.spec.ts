// Every page at a desktop width and a phone width: no horizontal scroll, and no serious or
// critical axe-core violation, signed in and out, in the light and the dark scheme. The dark scheme
// only swaps colour variables (app/globals.css), so in it the page is not reloaded and axe runs the
// rules that depend on colour, once per page: at the desktop width on one page and the phone width
// on the next, so the chrome both widths show (the navigation, the phone menu) is checked dark too.
// A tests/architecture check keeps that stylesheet block to colours.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { refundEachWay } from './helpers';

const WIDTHS = [1280, 390] as const;

async function expectNoOverflow(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${page.url()} is ${scrollWidth}px wide in a ${clientWidth}px window`).toBeLessThanOrEqual(clientWidth);
}

const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Every rule of TAGS, or only `rules` (axe takes one or the other: withRules replaces withTags). */
async function expectAccessible(page: Page, rules?: string[]) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (rules ? axe.withRules(rules) : axe.withTags(TAGS)).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    page.url(),
  ).toEqual([]);
}

/** Both widths in the light scheme; the dark colour pass at `darkWidth` only (see the top of this file). */
async function checkPage(page: Page, path: string, ready: (page: Page) => Promise<void>, darkWidth: (typeof WIDTHS)[number]) {
  for (const width of WIDTHS) {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width, height: 844 });
    await page.goto(path);
    await ready(page);
    await expectNoOverflow(page);
    await expectAccessible(page);
    if (width !== darkWidth) continue;
    // The system turns dark: the page follows at once, without a reload.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    await expectNoOverflow(page);
    await expectAccessible(page, COLOUR_RULES);
  }
}

test('signed out: the sign-in page, the hosted checkout page and the not-found page', async ({ page, payments }) => {
  const session = await payments({
    action: 'create_checkout_session',
    amount: 150_000,
    description: 'A long description of an order, to see it wrap on a phone',
  });
  await checkPage(page, '/login', (p) => expect(p.getByRole('button', { name: 'Sign in' })).toBeEnabled(), WIDTHS[0]);
  // The hosted page is the API's: in the split arrangement it is served where the API runs, so follow the link.
  await checkPage(page, session.url, (p) => expect(p.getByRole('button', { name: /^Pay / })).toBeEnabled(), WIDTHS[1]);
  await checkPage(page, '/no-such-page', (p) => expect(p.getByRole('heading').first()).toBeVisible(), WIDTHS[0]);
});

const CONSOLE_PAGES: [string, string][] = [
  ['/dashboard', 'Balance'],
  ['/payouts', 'Payouts'],
  ['/payouts?:filtered', 'Payouts'],
  ['/payouts/:failed', 'Payout'],
  ['/payout-batches', 'Batch payout'],
  ['/payout-batches/:batch', 'Its payouts'],
  ['/refunds', 'Refunds'],
  ['/checkout-sessions', 'New checkout session'],
  ['/balance', 'Balance history'],
  ['/balance?:moment', 'Balance at a moment'],
  ['/reports', 'Statement'],
  ['/checkout-sessions/:open', 'Checkout session'],
  ['/checkout-sessions/:paid', 'Checkout session'],
  ['/checkout-sessions/:refunded', 'Refunds'],
  ['/webhooks', 'Webhooks'],
  ['/api-keys', 'Create a restricted key'],
  ['/logs', 'Requests'],
  ['/logs/idempotency?:key', 'Idempotency key'],
  ['/webhooks/events/:event', 'Payout created'],
  ['/approvals?:waiting', 'Approvals'],
  ['/settings', 'Payout approvals'],
  ['/sandboxes', 'Live sandboxes'],
];

for (const [index, [path, heading]] of CONSOLE_PAGES.entries()) {
  test(`signed in: ${path}`, async ({ signedInBlank: page, payments }) => {
    test.slow();
    let target = path;
    if (path === '/sandboxes') await payments({ action: 'create_sandbox', name: 'Checkout flow tests, worker 3', test_clock: true });
    if (path.includes(':failed')) {
      const failed = await payments(
        { action: 'withdraw', amount: 12_345, bank_code: 'BCA', account_number: '4000000001' },
        `a11y-${Date.now()}`,
      );
      await payments({ action: 'simulate_payout', id: failed.id, outcome: 'failed' }).catch(() => undefined);
      target = `/payouts/${failed.id}`;
    } else if (path.includes(':open') || path.includes(':paid') || path.includes(':refunded')) {
      const cs = await payments({ action: 'create_checkout_session', amount: 88_000, description: 'A detail page on a phone' });
      if (!path.includes(':open')) await payments({ action: 'simulate_checkout_payment', id: cs.id });
      // Partly refunded: one refund settled, one pending, one failed (its message shown), and the form for the rest.
      if (path.includes(':refunded')) {
        await refundEachWay(payments, cs.id, [10_000, 20_000, 5_000], 'A reason long enough to wrap on a phone screen');
      }
      target = `/checkout-sessions/${cs.id}`;
    } else if (path.includes(':filtered')) {
      // A searched, filtered view (its summary, export link and the filter form filled in).
      await payments({ action: 'withdraw', amount: 10_000, bank_code: 'BRI', account_number: '1234567890' }, `a11y-${Date.now()}`);
      target = `/payouts?q=7890&status=pending&from=${new Date().toISOString().slice(0, 10)}`;
    } else if (path.includes(':key') || path.includes(':event')) {
      const key = `a11y-${Date.now()}`;
      const payout = await payments({ action: 'withdraw', amount: 10_500, bank_code: 'BNI', account_number: '1234567890' }, key);
      const events = await payments({ action: 'list_events', object_id: payout.id });
      target = path.includes(':key') ? `/logs/idempotency?key=${key}` : `/webhooks/events/${events.data[0].id}`;
    } else if (path.includes(':batch')) {
      const batch = await payments(
        {
          action: 'create_payout_batch',
          payouts: [
            { amount: 250_000, bank_code: 'BNI', account_number: '9876543210', reference: 'Invoice 2026-0042 for a long supplier name' },
            { amount: 75_000, bank_code: 'BRI', account_number: '4000000001' },
          ],
        },
        `a11y-batch-${Date.now()}`,
      );
      target = `/payout-batches/${batch.id}`;
    } else if (path.includes(':moment')) {
      // A balance at a moment shown: yesterday at 23:59 in the merchant's zone.
      target = `/balance?at_day=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}&at_time=23:59`;
    } else if (path === '/refunds') {
      // A refund of each ending: one refunded, one failed (its reason in words), one pending.
      const cs = await payments({ action: 'create_checkout_session', amount: 88_000, description: 'Refunds list on a phone' });
      await payments({ action: 'simulate_checkout_payment', id: cs.id });
      await refundEachWay(payments, cs.id, [10_000, 20_000, 5_000], 'A reason long enough to wrap');
    } else if (path.includes(':waiting')) {
      // A payout waiting for approval (the policy on for a moment, for every key), so the queue has a row.
      await payments({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' });
      await payments({ action: 'withdraw', amount: 10_000, bank_code: 'BCA', account_number: '1234567890' }, `a11y-${Date.now()}`);
      await payments({ action: 'update_payout_approval_policy', required: false });
      target = '/approvals';
    } else if (path === '/checkout-sessions' || path === '/payouts') {
      await payments({ action: 'create_checkout_session', amount: 99_000, description: 'Order 1' });
      await payments({ action: 'withdraw', amount: 10_000, bank_code: 'BRI', account_number: '1234567890' }, `a11y-${Date.now()}`);
    }
    await checkPage(
      page,
      target,
      async (p) => {
        await expect(p.getByRole('heading', { name: heading }).first()).toBeVisible();
        await expect(p.getByText(/^Loading/)).toHaveCount(0);
      },
      WIDTHS[index % WIDTHS.length]!,
    );
  });
}

test('the current page is marked in the navigation, and the phone menu opens without JavaScript', async ({
  signedInBlank: page,
  browser,
  merchant,
}) => {
  await page.goto('/payouts');
  await expect(page.getByRole('banner').getByTestId('merchant-name')).toHaveText(`Signed in as ${merchant.name}`);
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payouts' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
    'aria-current',
  );

  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 844 },
  });
  const phone = await noScript.newPage();
  await phone.goto('/payouts');
  await expect(phone.getByRole('navigation', { name: 'Console', exact: true })).toBeHidden();
  await phone.getByText('Menu').click();
  const menu = phone.getByRole('navigation', { name: 'Console menu' });
  await expect(menu.getByRole('link', { name: 'Payouts' })).toHaveAttribute('aria-current', 'page');
  await menu.getByRole('link', { name: 'Checkout' }).click();
  await expect(phone).toHaveURL(/\/checkout-sessions$/);
  await noScript.close();
});

test('the icon is served from public/', async ({ request }) => {
  const res = await request.get('/icon.svg');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('image/svg');
});
