// Every control reachable by the Tab key alone, each with a visible focus ring, at a desktop and a
// phone width; and the console's main jobs done without a mouse (a payout, the phone menu).
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Marks every visible, enabled control the keyboard should reach; answers how many. */
async function markControls(page: Page): Promise<number> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
    // Shown now: not disabled, laid out, not hidden, and not inside a closed <details> (its summary is).
    const closed = (el: HTMLElement) => el.tagName !== 'SUMMARY' && el.closest('details:not([open])') !== null;
    const all = [...document.querySelectorAll<HTMLElement>(selector)].filter(
      (el) => !(el as HTMLButtonElement).disabled && el.checkVisibility({ visibilityProperty: true }) && !closed(el),
    );
    all.forEach((el, i) => el.setAttribute('data-kbd', String(i)));
    return all.length;
  });
}

/** What the page noted of one focus: the control's mark (null for an unmarked one), its ring, its name. */
type Focus = { id: string | null; ring: boolean; name: string };

/**
 * Tabs through the page from its top: which marked controls received focus, and which of them showed
 * no ring. The page notes each focus as it happens (a focusin listener), so the test asks once at the
 * end instead of after every key press.
 */
async function tabThrough(page: Page, count: number) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const seen: Focus[] = [];
    (window as unknown as { kbdSeen: Focus[] }).kbdSeen = seen;
    document.addEventListener('focusin', (event) => {
      const el = event.target as HTMLElement;
      const s = getComputedStyle(el);
      const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
      seen.push({
        id: el.getAttribute('data-kbd'),
        ring,
        name: `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`,
      });
    });
  });
  for (let i = 0; i < count + 10; i++) await page.keyboard.press('Tab');
  const seen = await page.evaluate(() => (window as unknown as { kbdSeen: Focus[] }).kbdSeen);
  const marked = seen.filter((f) => f.id !== null);
  return { reached: new Set(marked.map((f) => f.id!)), noRing: marked.filter((f) => !f.ring).map((f) => f.name) };
}

async function unreached(page: Page, reached: Set<string>) {
  return page.evaluate(
    (ids) =>
      [...document.querySelectorAll<HTMLElement>('[data-kbd]')]
        .filter((el) => !ids.includes(el.getAttribute('data-kbd')!))
        .map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`),
    [...reached],
  );
}

const PAGES = [
  '/dashboard',
  '/payouts',
  '/balance',
  '/checkout-sessions',
  '/payout-batches',
  '/refunds',
  '/webhooks',
  '/api-keys',
  '/logs',
  '/approvals',
  '/settings',
];

// One test per width, so that each stays well inside its time.
for (const width of [1280, 390]) {
  test(`every control on every console page is reached by Tab, with a visible focus ring, at ${width}px`, async ({
    signedInBlank: page,
    payments,
  }) => {
    test.slow();
    const key = `kbd-${width}-${Date.now()}`;
    const payout = await payments({ action: 'withdraw', amount: 10_000, bank_code: 'BRI', account_number: '1234567890' }, key);
    const session = await payments({ action: 'create_checkout_session', amount: 99_000, description: 'Keyboard order' });
    // A partly refunded session: its refunds and the Refund form.
    const refunded = await payments({ action: 'create_checkout_session', amount: 99_000, description: 'Keyboard refund' });
    await payments({ action: 'simulate_checkout_payment', id: refunded.id });
    await payments({ action: 'create_refund', checkout_session_id: refunded.id, amount: 9_000 });
    const batch = await payments(
      { action: 'create_payout_batch', payouts: [{ amount: 10_000, bank_code: 'BRI', account_number: '1234567890' }] },
      `kbd-batch-${width}-${Date.now()}`,
    );
    const details = [
      `/payout-batches/${batch.id}`,
      `/payouts/${payout.id}`,
      `/checkout-sessions/${session.id}`,
      `/checkout-sessions/${refunded.id}`,
      `/logs/idempotency?key=${key}`,
    ];
    await page.setViewportSize({ width, height: 844 });
    for (const path of [...PAGES, ...details]) {
      await page.goto(path);
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      const count = await markControls(page);
      expect(count, `${path} has controls`).toBeGreaterThan(0);
      const { reached, noRing } = await tabThrough(page, count);
      expect(await unreached(page, reached), `${path} at ${width}px: not reached by Tab`).toEqual([]);
      expect(noRing, `${path} at ${width}px: focused without a visible ring`).toEqual([]);
    }
  });
}

test('signed out: the sign-in form and the hosted checkout page work from the keyboard', async ({ page, payments, merchant }) => {
  const session = await payments({ action: 'create_checkout_session', amount: 42_000, description: 'Paid by keyboard' });
  await page.goto(session.url);
  const count = await markControls(page);
  const { reached, noRing } = await tabThrough(page, count);
  expect(await unreached(page, reached)).toEqual([]);
  expect(noRing).toEqual([]);
  // Tab to the pay button and press Enter: the page reports the payment.
  await tabTo(page, page.getByLabel('Card number'));
  await page.keyboard.type('4242424242424242');
  await tabTo(page, page.getByRole('button', { name: /^Pay / }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Payment complete. Thank you!');

  await page.goto('/login');
  await tabTo(page, page.getByLabel('API key'));
  await page.keyboard.type(merchant.secretKey);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
});

/** Presses Tab until the element is focused (at most 60 presses). */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reached by Tab');
}

test('a payout sent with the keyboard alone, and the phone menu opened and followed with it', async ({ signedInBlank: page }) => {
  await page.goto('/dashboard');
  await tabTo(page, page.getByLabel('Amount (IDR)'));
  await page.keyboard.type('23456');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown'); // the bank select: the first bank after "Choose a bank…"
  await page.keyboard.press('Tab');
  await page.keyboard.type('1234567890');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('confirm-amount')).toHaveText('IDR 23,456');
  await tabTo(page, page.getByRole('button', { name: 'Send payout' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Payout po_\w+ created/)).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard');
  const menu = page.locator('summary', { hasText: 'Menu' });
  await tabTo(page, menu);
  await page.keyboard.press('Enter');
  const phoneNav = page.getByRole('navigation', { name: 'Console menu' });
  await expect(phoneNav).toBeVisible();
  await tabTo(page, phoneNav.getByRole('link', { name: 'Payouts' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/payouts$/);
  await expect(menu).toBeVisible();
});
