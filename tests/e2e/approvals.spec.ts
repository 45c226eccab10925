// Payout approvals as a merchant's team lives them: the owner turns payout approvals on; a support key with payouts:write sends a payout, which waits,
// with the holder's name looked up before the review; the owner's console shows it in Approvals with that name; a
// second key with payouts:approve approves it; it is paid; a real webhook receiver got payout.awaiting_approval,
// payout.approved and payout.paid, in that order, signed.
import type { Browser, Page } from '@playwright/test';
import { E2E_API_URL } from '../../playwright.config';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { createMerchant, expect, merchantApi, test } from './fixtures';
import { startSession } from './helpers';

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

async function signInWith(browser: Browser, key: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await startSession(page, key);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

test('a payout by a support key waits, is approved by a second key in the console, and is paid; the webhooks say so in order', async ({
  browser,
  request,
}) => {
  test.slow();
  const merchant = createMerchant(`Approvals ${Date.now()}`, 3_000_000);
  const owner = merchantApi(request, merchant);
  const path = `/approvals-${Date.now()}`;
  const endpoint = await owner({
    action: 'create_webhook_endpoint',
    url: receiver.endpoint(path),
    enabled_events: ['payout.awaiting_approval', 'payout.approved', 'payout.paid'],
  });
  receiver.trust(path, endpoint.secret);
  const support = await owner({ action: 'create_restricted_key', name: 'Support — Ana', permissions: ['payouts:write', 'payouts:read'] });
  const finance = await owner({
    action: 'create_restricted_key',
    name: 'Finance — Budi',
    permissions: ['payouts:read', 'payouts:approve'],
  });

  // The owner turns approvals on in Settings.
  const ownerPage = await signInWith(browser, merchant.secretKey);
  await ownerPage.getByRole('link', { name: 'Settings' }).first().click();
  await expect(ownerPage.getByTestId('policy-now')).toContainText('none waits');
  await ownerPage.getByLabel("Payouts need a second key's approval").check();
  await ownerPage.getByRole('button', { name: 'Save policy' }).click();
  await expect(ownerPage.getByTestId('policy-now')).toContainText('made by restricted keys wait for approval');

  // Support sends a payout: the holder's name shows before the review; the payout waits.
  const supportPage = await signInWith(browser, support.secret);
  await supportPage.getByLabel('Amount').fill('250000');
  await supportPage.getByLabel('Bank', { exact: true }).selectOption('BCA');
  await supportPage.getByLabel('Account number').fill('1234567890');
  await expect(supportPage.getByTestId('account-holder')).toHaveText('Budi Santoso');
  await supportPage.getByRole('button', { name: 'Review payout' }).click();
  await expect(supportPage.getByTestId('confirm-holder')).toHaveText('Budi Santoso');
  await supportPage.getByRole('button', { name: 'Send payout' }).click();
  await expect(supportPage.getByText(/Payout po_\w+ created: awaiting approval/)).toBeVisible();
  await expect(supportPage.getByTestId('awaits-approval')).toBeVisible();
  const id = (await supportPage.getByRole('link', { name: /^po_/ }).textContent())!;
  // Support may see the queue but has no buttons.
  await supportPage.goto('/approvals');
  await expect(supportPage.getByTestId('approval-row').filter({ hasText: 'Budi Santoso' })).toHaveCount(1);
  await expect(supportPage.getByRole('button', { name: /^Approve/ })).toHaveCount(0);

  // The owner's dashboard counts it, and Approvals shows it with the holder's name and who asked.
  await ownerPage.goto('/dashboard');
  await expect(ownerPage.getByTestId('approvals-waiting')).toContainText('1 payout waits for approval (IDR 250,000)');
  await expect(ownerPage.getByTestId('awaiting-approval')).toHaveAttribute('data-amount', '250000');
  await ownerPage.getByRole('link', { name: 'Review them in Approvals' }).click();
  const ownerRow = ownerPage.getByTestId('approval-row').filter({ has: ownerPage.locator(`[href="/payouts/${id}"]`) });
  await expect(ownerRow.getByTestId('holder-name')).toHaveText('Budi Santoso');
  await expect(ownerRow.getByTestId('requested-by')).toContainText('Support — Ana');
  await expect(ownerPage.getByTestId('approvals-summary')).toContainText('1 payout waits for approval, IDR 250,000');

  // Finance, a second key with payouts:approve, approves it: one request, one key, even on a double click.
  const financePage = await signInWith(browser, finance.secret);
  const sent: string[] = [];
  financePage.on('request', (r) => {
    if (r.url().endsWith('/api/approvals') && r.method() === 'POST') sent.push(r.postDataJSON().idempotency_key);
  });
  await financePage.goto('/approvals');
  await financePage.getByRole('checkbox', { name: /IDR 250,000 to Budi Santoso/ }).check();
  await expect(financePage.getByTestId('selection')).toContainText('1 payout chosen, IDR 250,000');
  // Approving sends money: the first click shows what would go and asks once more; going back sends nothing.
  await financePage.getByRole('button', { name: 'Approve 1' }).click();
  const confirm = financePage.getByTestId('approve-confirm');
  await expect(confirm.getByRole('heading')).toHaveText('Approve 1 payout, IDR 250,000 in all?');
  await expect(confirm.getByTestId('approve-confirm-accounts')).toHaveText('IDR 250,000 to Budi Santoso, BCA •••• 7890');
  await confirm.getByRole('button', { name: 'Go back' }).click();
  await expect(confirm).toHaveCount(0);
  expect(sent).toEqual([]);
  await financePage.getByRole('button', { name: 'Approve 1' }).click();
  await financePage.getByRole('button', { name: 'Yes, approve and send IDR 250,000' }).dblclick();
  await expect(financePage.getByTestId('decision-done')).toContainText('1 payout approved: on its way to the bank.');
  expect(new Set(sent).size).toBe(1);

  // Paid by settlement; the timeline says who asked and who approved.
  await expect.poll(async () => (await owner({ action: 'get_payout', id })).status, { timeout: 20_000 }).toBe('paid');
  await ownerPage.goto(`/payouts/${id}`);
  await expect(ownerPage.getByTestId('timeline-requested')).toContainText('Support — Ana');
  await expect(ownerPage.getByTestId('timeline-approved')).toContainText('Finance — Budi');
  await expect(ownerPage.getByTestId('account-holder')).toHaveText('Budi Santoso');

  await expect
    .poll(() => receiver.at(path).map((r) => r.event.type), { timeout: 20_000 })
    .toEqual(['payout.awaiting_approval', 'payout.approved', 'payout.paid']);
  expect(receiver.at(path).every((r) => r.verified && r.event.data.object.id === id)).toBe(true);
  expect(receiver.at(path)[1]!.event.data.object).toMatchObject({
    approved_by: { key_name: 'Finance — Budi' },
    account_holder_name: 'Budi Santoso',
  });
});

test('a rejection with a reason returns the money, and the timeline shows who rejected it and why', async ({ browser, request }) => {
  const merchant = createMerchant(`Rejections ${Date.now()}`, 1_000_000);
  const owner = merchantApi(request, merchant);
  await owner({ action: 'update_payout_approval_policy', required: true });
  const support = await owner({ action: 'create_restricted_key', name: 'Support', permissions: ['payouts:write'] });
  const res = await request.post(`${E2E_API_URL}/v1/index.php`, {
    headers: { authorization: `Bearer ${support.secret}` },
    data: { action: 'withdraw', amount: 40_000, bank_code: 'BNI', account_number: '9876543210' },
  });
  const payout = await res.json();
  expect(payout.status).toBe('awaiting_approval');
  const ownerPage = await signInWith(browser, merchant.secretKey);
  await ownerPage.goto('/approvals');
  await ownerPage.getByRole('checkbox', { name: /Siti Rahayu/ }).check();
  await ownerPage.getByRole('button', { name: 'Reject…' }).click();
  await ownerPage.getByRole('button', { name: 'Reject 1' }).click();
  await expect(ownerPage.getByText('Say why these payouts are rejected')).toBeVisible();
  await ownerPage.getByLabel('Reason for rejecting').fill('Supplier not on our list');
  await ownerPage.getByRole('button', { name: 'Reject 1' }).click();
  await expect(ownerPage.getByTestId('decision-done')).toContainText('1 payout rejected');
  expect((await owner({ action: 'get_balance' })).available).toBe(1_000_000);
  await ownerPage.goto(`/payouts/${payout.id}`);
  await expect(ownerPage.getByTestId('timeline-rejected')).toContainText('Supplier not on our list');
  await expect(ownerPage.getByTestId('payout-status')).toHaveAttribute('data-status', 'rejected');
});
