// Every console page at a phone, a small laptop and a desktop width, light and dark: no visible text or
// control is cut by an ancestor's overflow or lies outside the window (tests/e2e/clipping.ts), for a
// merchant with every kind of payout, checkout payments, refunds, a batch, a webhook and a restricted key.
// The list of pages is checked against app/(console)/**/page.tsx, so a new page cannot be left out. On the
// way it checks that no table or heading shows a raw status, reason or kind code (awaiting_approval,
// rejected_by_bank): those read as words (console/browser/labels.ts).
// SCREENSHOTS=<dir> also saves each page at 390 and 1280 px, light and dark, to look at.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { clippedOn, describeClipped } from './clipping';
import { createMerchant, expect, test, type TestMerchant } from './fixtures';
import { refundEachWay, startSession } from './helpers';
import type { JsonAnswer } from '../helpers/json-answer';
import { RAW_CODES } from '../../console/browser/labels';

const WIDTHS = [390, 1024, 1280] as const;
const SCREENSHOT_WIDTHS = new Set([390, 1280]);
const SHOTS = process.env.SCREENSHOTS;

type Seeded = Record<string, string>;

/** Each console page (its file under app/(console)) and the address that shows it filled in. */
const PAGES: Record<string, (s: Seeded) => string[]> = {
  'dashboard/page.tsx': () => ['/dashboard'],
  'payouts/page.tsx': () => ['/payouts'],
  'payouts/[id]/page.tsx': (s) => [s.paid, s.failed, s.returned, s.pending, s.waiting].map((id) => `/payouts/${id}`),
  'payout-batches/page.tsx': () => ['/payout-batches'],
  'payout-batches/[id]/page.tsx': (s) => [`/payout-batches/${s.batch}`],
  'approvals/page.tsx': () => ['/approvals'],
  'checkout-sessions/page.tsx': () => ['/checkout-sessions'],
  'checkout-sessions/[id]/page.tsx': (s) => [`/checkout-sessions/${s.open}`, `/checkout-sessions/${s.refunded}`],
  'refunds/page.tsx': () => ['/refunds'],
  'refunds/[id]/page.tsx': (s) => [`/refunds/${s.refund}`],
  'balance/page.tsx': (s) => ['/balance', `/balance?at_day=${s.fromDay}&at_time=23:59`],
  'reports/page.tsx': (s) => [
    `/reports?from=${s.fromDay}&to=${s.toDay}`,
    `/reports?from=${s.toDay}&to=${s.fromDay}`,
    '/reports?month=2020-01',
  ],
  'logs/page.tsx': () => ['/logs'],
  'logs/idempotency/page.tsx': (s) => [`/logs/idempotency?key=${s.key}`],
  'webhooks/page.tsx': () => ['/webhooks'],
  'webhooks/events/[id]/page.tsx': (s) => [`/webhooks/events/${s.event}`],
  'api-keys/page.tsx': () => ['/api-keys'],
  'settings/page.tsx': () => ['/settings'],
  'sandboxes/page.tsx': () => ['/sandboxes'],
};

function consolePages(dir = path.join(__dirname, '../../app/(console)'), prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'api' && !prefix ? [] : consolePages(path.join(dir, e.name), `${prefix}${e.name}/`);
    return e.name === 'page.tsx' ? [`${prefix}${e.name}`] : [];
  });
}

test('the walk covers every console page', () => {
  expect(Object.keys(PAGES).sort()).toEqual(consolePages().sort());
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A merchant with paid, failed, returned, pending and awaiting-approval payouts, a batch, payments, refunds, a webhook and a restricted key. */
async function seed(call: (body: Record<string, unknown>, key?: string) => Promise<JsonAnswer>): Promise<Seeded> {
  const stamp = Date.now();
  const withdraw = (amount: number, account: string, n: string) =>
    call({ action: 'withdraw', amount, bank_code: 'BCA', account_number: account }, `clip-${n}-${stamp}`);
  await call({ action: 'create_test_topup', amount: 10_000_000 }, `clip-topup-${stamp}`);
  const paid = await withdraw(6_750_000, '1234567890', 'paid');
  await call({ action: 'simulate_payout', id: paid.id, outcome: 'paid' });
  const failed = await withdraw(12_345, '1234567891', 'failed');
  await call({ action: 'simulate_payout', id: failed.id, outcome: 'failed', failure_code: 'rejected_by_bank' });
  const returned = await withdraw(10_000_000, '1234567892', 'returned');
  await call({ action: 'simulate_payout', id: returned.id, outcome: 'paid' });
  await call({ action: 'simulate_payout', id: returned.id, outcome: 'returned' }, `clip-return-${stamp}`);
  // 4000000003 stays pending for an hour.
  const pending = await withdraw(1_250_000, '4000000003', 'pending');
  const batch = await call(
    {
      action: 'create_payout_batch',
      payouts: [
        { amount: 250_000, bank_code: 'BNI', account_number: '9876543210', reference: 'Invoice 2026-0042 for a long supplier name' },
        { amount: 75_000, bank_code: 'BRI', account_number: '4000000001' },
      ],
    },
    `clip-batch-${stamp}`,
  );
  await call({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' });
  const waiting = await withdraw(3_500_000, '1234567893', 'waiting');
  await call({ action: 'update_payout_approval_policy', required: false });

  const open = await call({
    action: 'create_checkout_session',
    amount: 10_000_000,
    description: 'An order with a long description, to see it wrap',
  });
  const refunded = await call({ action: 'create_checkout_session', amount: 2_500_000, description: 'Order 1001' });
  await call({ action: 'simulate_checkout_payment', id: refunded.id });
  const refund = await refundEachWay(call, refunded.id, [1_000_000, 200_000, 50_000], 'The customer sent the goods back, all of them');
  await call({
    action: 'create_webhook_endpoint',
    url: 'http://127.0.0.1:9/hooks/payments-with-a-long-path',
    description: 'Our order system',
  });
  await call({
    action: 'create_restricted_key',
    name: 'Support desk — Ana Wijaya',
    permissions: ['payouts:read', 'payouts:write'],
    max_payout_amount: 5_000_000,
  });
  const sandbox = await call(
    { action: 'create_sandbox', name: 'Checkout suite — worker 3 of a long CI run', test_clock: true, balance: 2_500_000 },
    `clip-sandbox-${stamp}`,
  );
  const key = `clip-paid-${stamp}`;
  const events = await call({ action: 'list_events', object_id: paid.id });
  return {
    paid: paid.id,
    failed: failed.id,
    returned: returned.id,
    pending: pending.id,
    waiting: waiting.id,
    open: open.id,
    refunded: refunded.id,
    refund,
    batch: batch.id,
    key,
    event: events.data[0].id,
    clockedKey: sandbox.secret_key,
    fromDay: day(-1),
    toDay: day(1),
  };
}

let merchant: TestMerchant;
let seeded: Seeded;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  merchant = createMerchant(`PT Sumber Makmur Sejahtera Abadi ${Date.now()}`, 50_000_000);
  const request = await playwright.request.newContext();
  seeded = await seed(async (body, key) => {
    const res = await request.post(`${E2E_API_URL}/v1/index.php`, {
      headers: { authorization: `Bearer ${merchant.secretKey}`, ...(key ? { 'x-service-idempotency': key } : {}) },
      data: body,
    });
    expect(res.status(), `${body.action}: ${await res.text()}`).toBeLessThan(300);
    return res.json();
  });
  // The clocked sandbox's today a Sunday in any zone from UTC-5 to UTC+14: its balance chart's last day starts a week,
  // so d3 puts a day's label at the chart's right edge (on the wall clock that happens one day in seven).
  const sunday = new Date();
  sunday.setUTCDate(sunday.getUTCDate() + ((7 - sunday.getUTCDay()) % 7 || 7));
  sunday.setUTCHours(5, 0, 0, 0);
  seeded.sundayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(sunday);
  const res = await request.post(`${E2E_API_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${seeded.clockedKey}` },
    data: { action: 'advance_test_clock', to: sunday.toISOString() },
  });
  expect(res.status(), await res.text()).toBe(200);
  await request.dispose();
});

async function settle(page: Page) {
  await expect(page.locator('main')).toBeVisible();
  await expect(page.getByText(/^(Loading|Counting)/)).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** Raw codes in the text of the page's tables and headings. */
async function rawCodesOn(page: Page): Promise<string[]> {
  const text = await page.evaluate(() =>
    [...document.querySelectorAll('main table, main h1, main h2, main h3, main h4')].map((e) => (e as HTMLElement).innerText).join('\n'),
  );
  return RAW_CODES.filter((code) => new RegExp(`(^|[^a-z_])${code}($|[^a-z_])`).test(text));
}

/** The screenshot's file: the address with each seeded object named by its role (payouts-returned-390-dark.png). */
function shotName(url: string, width: number, scheme: string) {
  let named = url;
  for (const [role, value] of Object.entries(seeded)) if (value.length > 12) named = named.replace(value, role);
  const slug = named
    .replace(/^\//, '')
    .replace(/\?.*from=([\d-]+)&to=([\d-]+)/, (_, f, t) => (f < t ? '-range' : '-reversed'))
    .replace(/\?at_day=.*/, '-at-a-moment')
    .replace(/[^a-z0-9-]+/gi, '-');
  return path.join(SHOTS!, `${slug || 'root'}-${width}-${scheme}.png`);
}

/** Each address at each width, light and dark: what is cut, and raw codes in its tables and headings. */
async function problemsOn(page: Page, urls: string[], shot = (url: string) => url): Promise<string[]> {
  const problems: string[] = [];
  for (const url of urls) {
    for (const width of WIDTHS) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await settle(page);
      if (width === WIDTHS[0]) {
        const codes = await rawCodesOn(page);
        if (codes.length) problems.push(`${url}: raw codes in a table or heading: ${codes.join(', ')}`);
      }
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const clipped = await clippedOn(page);
        if (clipped.length)
          problems.push(`${url} at ${width}px, ${scheme}: ${clipped.length} cut\n${describeClipped(clipped.slice(0, 20))}`);
        if (SHOTS && SCREENSHOT_WIDTHS.has(width)) await page.screenshot({ path: shotName(shot(url), width, scheme), fullPage: true });
      }
    }
  }
  return problems;
}

for (const [file, urls] of Object.entries(PAGES)) {
  test(`nothing is cut on ${file}`, async ({ page }) => {
    test.setTimeout(180_000);
    await startSession(page, merchant.secretKey);
    const problems = await problemsOn(page, urls(seeded));
    expect(problems.length, problems.join('\n')).toBe(0);
  });
}

test('nothing is cut on the balance chart when its last day is a Sunday (a label at its right edge)', async ({ page }) => {
  await startSession(page, seeded.clockedKey!);
  await page.goto('/balance');
  // The last day's label is drawn: the case this test is for.
  await expect(page.locator('svg.chart-svg text.chart-axis').last()).toHaveText(seeded.sundayLabel!);
  const problems = await problemsOn(page, ['/balance'], () => '/balance-ending-on-a-sunday');
  expect(problems.length, problems.join('\n')).toBe(0);
});
