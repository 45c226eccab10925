import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_URL, E2E_BASE_URL, E2E_DEMO_KEY } from '../../playwright.config';
import type { JsonAnswer } from '../helpers/json-answer';

export { E2E_BASE_URL as BASE_URL, E2E_DEMO_KEY as DEMO_KEY };

/**
 * Signs in without the form: POST /api/session from the page's own request context, so the session
 * cookie lands in the page's browser context, as the form's request would put it there. The form
 * itself (its page, its request, the page it sends the browser on to) is tested in session.spec.ts
 * (signInWithForm) and deep-link.spec.ts. `signIn` skips only the form: its answer is the form's.
 */
export async function startSession(page: Page, key = E2E_DEMO_KEY) {
  const res = await page.request.post('/api/session', { data: { secretKey: key } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs in (startSession), opens the dashboard, and waits for the balance. */
export async function signIn(page: Page, key = E2E_DEMO_KEY) {
  await startSession(page, key);
  await page.goto('/dashboard');
  await expectDashboard(page);
}

/** Signs in through the form, as a person would, and waits for the balance. */
export async function signInWithForm(page: Page, key = E2E_DEMO_KEY) {
  await page.goto('/login');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectDashboard(page);
}

async function expectDashboard(page: Page) {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Balance' })).toBeVisible();
  await expect(page.getByTestId('available')).toBeVisible();
}

/** The available balance as the page shows it (its raw integer). */
export async function available(page: Page): Promise<number> {
  return Number(await page.getByTestId('available').getAttribute('data-amount'));
}

export async function expectAvailable(page: Page, amount: number) {
  await expect(page.getByTestId('available')).toHaveAttribute('data-amount', String(amount));
}

/** Calls the payment API directly, from the test (Node) side: the ground truth. */
export async function api<T = JsonAnswer>(request: APIRequestContext, body: Record<string, unknown>, idempotencyKey?: string): Promise<T> {
  const res = await request.post(`${E2E_API_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${E2E_DEMO_KEY}`, ...(idempotencyKey ? { 'x-service-idempotency': idempotencyKey } : {}) },
    data: body,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

export async function payoutsWithAmount(request: APIRequestContext, amount: number) {
  const list = await api<{ data: { id: string; amount: number; status: string }[] }>(request, { action: 'list_payouts', limit: 100 });
  return list.data.filter((p) => p.amount === amount);
}

/** Fills the payout form, reviews it and presses "Send payout". */
export async function sendPayout(page: Page, input: { amount: number; bank: string; account: string }) {
  await page.getByLabel('Amount').fill(String(input.amount));
  await page.getByLabel('Bank', { exact: true }).selectOption(input.bank);
  await page.getByLabel('Account number').fill(input.account);
  await page.getByRole('button', { name: 'Review payout' }).click();
  await expect(page.getByTestId('confirm-account')).toHaveText(`•••• ${input.account.slice(-4)}`);
  await page.getByRole('button', { name: 'Send payout' }).click();
}

/** Three refunds of a paid checkout session, one of each ending: succeeded, failed, left pending. Answers the first's id. */
export async function refundEachWay(
  call: (body: Record<string, unknown>) => Promise<JsonAnswer>,
  sessionId: string,
  amounts: readonly [number, number, number],
  reason: string,
): Promise<string> {
  const outcomes = ['succeeded', 'failed', undefined] as const;
  const ids: string[] = [];
  for (const [i, amount] of amounts.entries()) {
    const refund = await call({ action: 'create_refund', checkout_session_id: sessionId, amount, reason });
    if (outcomes[i]) await call({ action: 'simulate_refund', id: refund.id, outcome: outcomes[i] });
    ids.push(refund.id as string);
  }
  return ids[0]!;
}
