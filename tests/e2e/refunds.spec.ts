// Refunds as a merchant makes them: a session paid on the hosted page, part of it refunded
// in the console (review step, one idempotency key), the rest through the API; both in the balance
// history and both refund.succeeded events at a real receiver, verified with `standardwebhooks`.
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { expect, test } from './fixtures';
import type { JsonAnswer } from '../helpers/json-answer';

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test('pay on the hosted page, refund part in the console and the rest through the API: both in the balance history, both refund.succeeded at a receiver', async ({
  signedInBlank: page,
  payments,
  browser,
}) => {
  test.slow();
  const path = `/refunds-${Date.now()}`;
  const endpoint = await payments({
    action: 'create_webhook_endpoint',
    url: receiver.endpoint(path),
    enabled_events: ['refund.created', 'refund.succeeded', 'refund.failed'],
  });
  receiver.trust(path, endpoint.secret);

  // The customer pays 200,000 on the hosted page.
  const session = await payments({ action: 'create_checkout_session', amount: 200_000, description: 'E2E refund order' });
  const customer = await browser.newContext();
  const pay = await customer.newPage();
  await pay.goto(session.url);
  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByRole('button', { name: /^Pay / }).click();
  await expect(pay.getByText('Payment complete')).toBeVisible();
  await customer.close();

  // Part of it refunded in the console: partial amount, a reason, the review step, then the refund.
  await page.goto(`/checkout-sessions/${session.id}`);
  await expect(page.getByRole('heading', { name: 'Refunds' })).toBeVisible();
  await expect(page.getByTestId('cs-left-to-refund')).toHaveAttribute('data-amount', '200000');
  await expect(page.getByText('No refunds yet.')).toBeVisible();
  await page.getByLabel('Amount to refund').selectOption('partial');
  // Above what is left: the form says so before anything is sent.
  await page.getByLabel('Amount (IDR)').fill('250000');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'at most' })).toContainText('IDR 200,000');
  await page.getByLabel('Amount (IDR)').fill('50000');
  await page.getByLabel('Reason (optional)').fill('One mug arrived broken');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await expect(page.getByTestId('refund-review-amount')).toHaveText('IDR 50,000');
  await page.getByRole('button', { name: 'Refund IDR 50,000' }).click();
  await expect(page.getByTestId('refund-created')).toContainText(/Refund re_\w+ created: pending/);
  const consoleRefund = /re_\w+/.exec((await page.getByTestId('refund-created').textContent())!)![0];
  await expect(page.getByTestId('cs-left-to-refund')).toHaveAttribute('data-amount', '150000');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('cs-refund-mark')).toHaveText(/Partly refunded/);
  await expect(page.getByTestId('refund-row')).toHaveCount(1);

  // The one intent made one refund, with its reason, by the signed-in key.
  const fromApi = await payments({ action: 'list_refunds', checkout_session_id: session.id });
  expect(fromApi.data.map((r: JsonAnswer) => [r.id, r.amount, r.reason])).toEqual([[consoleRefund, 50_000, 'One mug arrived broken']]);

  // The rest through the API: no amount means what is left.
  const rest = await payments(
    { action: 'create_refund', checkout_session_id: session.id, reason: 'Order canceled' },
    `e2e-refund-rest-${Date.now()}`,
  );
  expect(rest.amount).toBe(150_000);
  await page.reload();
  await expect(page.getByTestId('cs-status')).toHaveAttribute('data-status', 'refunded');
  await expect(page.getByTestId('cs-left-to-refund')).toHaveAttribute('data-amount', '0');
  await expect(page.getByText('Refunded in full: nothing is left to refund.')).toBeVisible();
  // Both settle (SETTLEMENT_DELAY_SECONDS=1) and the page shows it without a reload.
  await expect(page.getByTestId('refund-row').and(page.locator('[data-status="succeeded"]'))).toHaveCount(2, { timeout: 15_000 });

  // /checkout-sessions marks it refunded.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Checkout' }).click();
  await expect(page.locator(`[data-session-id="${session.id}"]`)).toHaveAttribute('data-refund', 'refunded');

  // Both in the balance history, with their sources; a refund's source opens its session.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Balance' }).click();
  // Other specs refund on the same merchant: find this session's two refunds by their ids.
  const restRow = page.getByTestId('txn-row').filter({ hasText: rest.id });
  const consoleRow = page.getByTestId('txn-row').filter({ hasText: consoleRefund });
  await expect(restRow).toHaveAttribute('data-type', 'refund');
  await expect(restRow).toHaveAttribute('data-amount', '-150000');
  await expect(consoleRow).toHaveAttribute('data-type', 'refund');
  await expect(consoleRow).toHaveAttribute('data-amount', '-50000');
  await expect(consoleRow).toContainText('Refund');
  await consoleRow.getByRole('link', { name: consoleRefund }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout-sessions/${session.id}#${consoleRefund}$`));

  // Both refund.succeeded events at the receiver, signed.
  await expect
    .poll(
      () =>
        receiver
          .at(path)
          .filter((r) => r.event.type === 'refund.succeeded')
          .map((r) => r.event.data.object.id)
          .sort(),
      { timeout: 15_000 },
    )
    .toEqual([consoleRefund, rest.id].sort());
  expect(receiver.at(path).every((r) => r.verified)).toBe(true);
  expect(receiver.at(path).filter((r) => r.event.type === 'refund.created')).toHaveLength(2);
});

test('a refund by keyboard alone: the form, the review and the refund', async ({ signedInBlank: page, payments }) => {
  const session = await payments({ action: 'create_checkout_session', amount: 30_000, description: 'Keyboard refund' });
  await payments({ action: 'simulate_checkout_payment', id: session.id });
  await page.goto(`/checkout-sessions/${session.id}`);
  await expect(page.getByTestId('refund-form')).toBeVisible();
  await page.getByLabel('Amount to refund').focus();
  await page.keyboard.press('ArrowDown'); // the closed select: to "Partial amount"
  await expect(page.getByLabel('Amount to refund')).toHaveValue('partial');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Amount (IDR)')).toBeFocused();
  await page.keyboard.type('10000');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('refund-review-amount')).toHaveText('IDR 10,000');
  await page.getByRole('button', { name: 'Refund IDR 10,000' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('refund-created')).toBeVisible();
  await expect(page.getByTestId('cs-left-to-refund')).toHaveAttribute('data-amount', '20000');
});

test('the refund route: a cross-origin POST is refused and refunds nothing; bad fields name themselves; the API refusal comes through', async ({
  signedIn: page,
  payments,
}) => {
  const session = await payments({ action: 'create_checkout_session', amount: 20_000 });
  await payments({ action: 'simulate_checkout_payment', id: session.id });
  const route = `/api/checkout-sessions/${session.id}/refunds`;
  const origin = new URL(page.url()).origin;
  const evil = origin.replace(/:(\d+)$/, (_m, p) => `:${Number(p) + 1}`);
  const cookie = (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join('; ');
  const forged = await page.request.post(route, {
    headers: { cookie, origin: evil, 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
    data: { amount: 20_000, idempotency_key: 'evil-refund-0001' },
  });
  expect([forged.status(), (await forged.json()).error.code]).toEqual([403, 'cross_origin_request']);
  expect((await payments({ action: 'list_refunds', checkout_session_id: session.id })).data).toEqual([]);

  const bad = await page.request.post(route, { data: { amount: 1.5, idempotency_key: 'bad-refund-0001' } });
  expect([bad.status(), (await bad.json()).error]).toEqual([400, expect.objectContaining({ code: 'invalid_request', param: 'amount' })]);
  const badId = await page.request.get('/api/checkout-sessions/po_123/refunds');
  expect(badId.status()).toBe(400);
  const over = await page.request.post(route, { data: { amount: 20_001, idempotency_key: 'over-refund-0001' } });
  expect([over.status(), (await over.json()).error]).toEqual([
    422,
    expect.objectContaining({ code: 'refund_amount_exceeded', param: 'amount' }),
  ]);
  const ok = await page.request.post(route, { data: { amount: 20_000, reason: 'Canceled', idempotency_key: 'ok-refund-0001' } });
  const again = await page.request.post(route, { data: { amount: 20_000, reason: 'Canceled', idempotency_key: 'ok-refund-0001' } });
  expect([ok.status(), again.status(), (await again.json()).replayed]).toEqual([200, 200, true]);
  expect((await payments({ action: 'list_refunds', checkout_session_id: session.id })).data).toHaveLength(1);
});

test('a lost answer: the refund form says the outcome is unknown, asks again with the same key, and one refund exists', async ({
  signedInBlank: page,
  payments,
}) => {
  const session = await payments({ action: 'create_checkout_session', amount: 40_000 });
  await payments({ action: 'simulate_checkout_payment', id: session.id });
  const bodies: { idempotency_key: string }[] = [];
  let dropped = false;
  await page.route('**/api/checkout-sessions/*/refunds', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    bodies.push(route.request().postDataJSON());
    if (dropped) return route.continue();
    dropped = true;
    // The server refunds; the browser never hears back.
    expect((await route.fetch()).status()).toBe(200);
    await route.abort('connectionreset');
  });
  await page.goto(`/checkout-sessions/${session.id}`);
  await page.getByRole('button', { name: 'Review refund' }).click();
  await page.getByRole('button', { name: 'Refund IDR 40,000' }).click();
  await expect(page.getByText(/Outcome unknown/)).toBeVisible();
  await expect(page.getByTestId('refund-created')).toContainText('Replayed', { timeout: 15_000 });
  expect(bodies.length).toBeGreaterThanOrEqual(2);
  expect(new Set(bodies.map((b) => b.idempotency_key)).size).toBe(1);
  const refunds = (await payments({ action: 'list_refunds', checkout_session_id: session.id })).data;
  expect(refunds.map((r: JsonAnswer) => r.amount)).toEqual([40_000]);
});

test('a double click refunds once', async ({ signedInBlank: page, payments }) => {
  const session = await payments({ action: 'create_checkout_session', amount: 15_000 });
  await payments({ action: 'simulate_checkout_payment', id: session.id });
  await page.goto(`/checkout-sessions/${session.id}`);
  await page.getByRole('button', { name: 'Review refund' }).click();
  await page.getByRole('button', { name: 'Refund IDR 15,000' }).dblclick();
  await expect(page.getByTestId('refund-created')).toBeVisible();
  const refunds = (await payments({ action: 'list_refunds', checkout_session_id: session.id })).data;
  expect(refunds.map((r: JsonAnswer) => r.amount)).toEqual([15_000]);
});
