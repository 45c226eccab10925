// A payout's page: copyable ids and a timeline (created by, failed with the reason, the balance entry
// that returned the money, events and their webhook deliveries); and the story on a phone:
// a link to a failed payout opened signed out, sign-in, the reason, and the reversal in the balance history.
import type { Page } from '@playwright/test';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { createMerchant, expect, merchantApi, test } from './fixtures';
import { startSession } from './helpers';
import type { JsonAnswer } from '../helpers/json-answer';

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

/** The reversal of a failed payout as the API's balance history lists it. */
async function reversalOf(payments: (body: Record<string, unknown>) => Promise<JsonAnswer>, payoutId: string) {
  const list = await payments({ action: 'list_balance_transactions', type: 'payout_reversal', limit: 100 });
  return list.data.find((t: JsonAnswer) => t.source === payoutId) as { id: string; amount: number; balance_after: number };
}

async function failedPayout(payments: (body: Record<string, unknown>, key?: string) => Promise<JsonAnswer>, amount: number) {
  const p = await payments({ action: 'withdraw', amount, bank_code: 'BNI', account_number: '4000000001' }, `tl-${amount}-${Date.now()}`);
  // The test account fails at settlement (1 s in this suite).
  await expect.poll(async () => (await payments({ action: 'get_payout', id: p.id })).status, { timeout: 15_000 }).toBe('failed');
  return payments({ action: 'get_payout', id: p.id });
}

async function expectNoOverflow(page: Page) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
}

test('a failed payout: copyable id, created by, the reason, the reversal and its events with deliveries', async ({
  signedInBlank: page,
  payments,
  context,
}) => {
  const path = `/timeline-${Date.now()}`;
  await payments({ action: 'create_webhook_endpoint', url: receiver.endpoint(path), enabled_events: ['payout.created', 'payout.failed'] });
  const p = await failedPayout(payments, 27_182);
  const reversal = await reversalOf(payments, p.id);
  expect(reversal.amount).toBe(27_182);
  await expect.poll(() => receiver.at(path).length, { timeout: 15_000 }).toBe(2);

  await page.goto(`/payouts/${p.id}`);
  await expect(page.getByTestId('payout-status')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('timeline-created')).toContainText('by Secret key');
  await expect(page.getByTestId('timeline-created')).toContainText('IDR 27,182 to BNI •••• 0001');
  await expect(page.getByTestId('timeline-failed')).toContainText(p.failure_message);
  await expect(page.getByTestId('timeline-failed')).toContainText('invalid_account');
  const back = page.getByTestId('timeline-reversal');
  await expect(back).toHaveAttribute('data-amount', String(reversal.amount));
  await expect(back).toHaveAttribute('data-balance-after', String(reversal.balance_after));
  await expect(back).toContainText(reversal.id);

  const events = page.getByTestId('payout-event');
  await expect(events).toHaveCount(2);
  expect(await events.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')))).toEqual(['payout.created', 'payout.failed']);
  await expect(page.getByTestId('payout-delivery')).toHaveCount(2);
  for (const d of await page.getByTestId('payout-delivery').all()) await expect(d).toContainText('Delivered, 1 attempt (HTTP 200)');
  await events.first().getByRole('link', { name: 'Payout created' }).click();
  await expect(page.getByTestId('event-json')).toContainText(p.id);
  await page.goBack();

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy payout id' }).click();
  await expect(page.getByRole('button', { name: 'Copy payout id' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(p.id);

  // Newer entries since: the link still lands on the reversal, at the top of the history it opens.
  await payments({ action: 'create_test_topup', amount: 1_000 }, `tl-topup-${Date.now()}`);
  await page.getByRole('link', { name: 'See it in the balance history' }).click();
  await expect(page.getByTestId('txn-row').first()).toHaveAttribute('data-txn-id', reversal.id);
  await expect(page.getByTestId('txn-row').first()).toHaveAttribute('data-balance-after', String(reversal.balance_after));
  await page.getByRole('link', { name: 'Newest entries' }).click();
  await expect(page.getByTestId('txn-row').first()).toHaveAttribute('data-type', 'topup');
});

test('done when: on a phone, a link to a failed payout survives sign-in, shows why, and where the money went back', async ({
  browser,
  merchant,
  payments,
}) => {
  const p = await failedPayout(payments, 31_415);
  const reversal = await reversalOf(payments, p.id);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/payouts/${p.id}`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel('API key').fill(merchant.secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(new RegExp(`/payouts/${p.id}$`));
  await expect(page.getByTestId('failure-reason')).toContainText(p.failure_message);
  await expect(page.getByTestId('timeline-reversal')).toHaveAttribute('data-balance-after', String(reversal.balance_after));
  await expectNoOverflow(page);
  await page.getByRole('link', { name: 'See it in the balance history' }).click();

  await expect(page).toHaveURL(new RegExp(`/balance\\?entry=${reversal.id}&until=`));
  const row = page.locator(`[data-txn-id="${reversal.id}"]`);
  // The history starts at the reversal, marked, however old it is.
  await expect(page.getByTestId('txn-row').first()).toHaveAttribute('data-txn-id', reversal.id);
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(row).toHaveAttribute('data-type', 'payout_reversal');
  await expect(row).toHaveAttribute('data-amount', '31415');
  await expect(row).toHaveAttribute('data-balance-after', String(reversal.balance_after));
  await expect(row).toContainText('+IDR 31,415');
  await expect(row.getByRole('link', { name: p.id })).toBeVisible();
  await expectNoOverflow(page);
  await context.close();
});

test("a pending payout's page redraws its timeline once the payout settles", async ({ signedInBlank: page, payments }) => {
  const p = await payments(
    { action: 'withdraw', amount: 12_121, bank_code: 'BCA', account_number: '1234567890' },
    `tl-pending-${Date.now()}`,
  );
  await page.goto(`/payouts/${p.id}`);
  // Settled by the job a second after creation; the page polls the status, then asks the server for the timeline again.
  await expect(page.getByTestId('payout-status')).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('timeline-paid')).toBeVisible();
  await expect(page.getByTestId('timeline-pending')).toHaveCount(0);
  await expect(page.getByTestId('payout-event')).toHaveCount(2);
});

test('server-rendered pages end a session whose key was rolled: sign-in with the message, no error page', async ({ page, request }) => {
  const merchant = createMerchant(`Rolled ${Date.now()}`, 1_000_000);
  const call = merchantApi(request, merchant);
  const p = await call({ action: 'withdraw', amount: 10_000, bank_code: 'BCA', account_number: '1234567890' }, `tl-rolled-${Date.now()}`);
  await startSession(page, merchant.secretKey);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  // Off the dashboard first, once its reads are answered: a read still on its way when the key is
  // rolled would end the session itself (and its polling would navigate on its own).
  await expect(page.getByTestId('available')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.goto('about:blank');
  await call({ action: 'roll_secret_key' });
  await page.goto(`/payouts/${p.id}`);
  await expect(page).toHaveURL(/\/login\?ended=1$/);
  await expect(page.getByTestId('session-ended')).toBeVisible();
});
