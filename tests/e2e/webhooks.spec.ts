// The Webhooks page, as a newcomer uses it: an endpoint pointing at a local receiver, its secret
// shown once, a payout made in the console, and payout.created then payout.paid arriving signed
// (verified with `standardwebhooks` by a real receiver), with the deliveries visible in the console.
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { expect, test } from './fixtures';

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test('an endpoint added in the console receives the events of a payout, signed, and shows its deliveries', async ({
  signedIn: page,
  payments,
}) => {
  const path = `/hooks-${Date.now()}`;
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await page.getByLabel('URL').fill(receiver.endpoint(path));
  await page.getByRole('button', { name: 'Add endpoint' }).click();

  // The secret once, with a copy button; never again after "Done".
  const secret = (await page.getByTestId('one-time-secret').textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  receiver.trust(path, secret);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('one-time-secret')).toHaveCount(0);
  const card = page.getByTestId('webhook-endpoint').filter({ hasText: path });
  await expect(card).toContainText('Enabled');
  expect(await page.content()).not.toContain(secret);

  // A payout made in the console; the bank answers at once through the test helper.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByLabel('Amount').fill('75000');
  await page.getByLabel('Bank', { exact: true }).selectOption('BCA');
  await page.getByLabel('Account number').fill('4000000003');
  await page.getByRole('button', { name: 'Review payout' }).click();
  await page.getByRole('button', { name: 'Send payout' }).click();
  const id = (await page.getByRole('link', { name: /^po_/ }).textContent())!;
  await payments({ action: 'simulate_payout', id, outcome: 'paid' });

  await expect
    .poll(
      () =>
        receiver
          .at(path)
          .map((r) => r.event.type)
          .sort(),
      { timeout: 15_000 },
    )
    .toEqual(['payout.created', 'payout.paid']);
  expect(receiver.at(path).every((r) => r.verified && r.event.data.object.id === id)).toBe(true);

  await page.getByRole('link', { name: 'Webhooks' }).click();
  const rows = card.getByTestId('webhook-delivery');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Payout paid' })).toContainText('Delivered');
  await expect(rows.filter({ hasText: 'Payout paid' })).toContainText('200');

  // Resend: the same event, the same webhook-id, once more.
  await rows.filter({ hasText: 'Payout paid' }).getByRole('button', { name: 'Resend' }).click();
  await expect(rows).toHaveCount(3);
  await expect.poll(() => receiver.at(path).filter((r) => r.event.type === 'payout.paid').length).toBe(2);
  const paidIds = receiver
    .at(path)
    .filter((r) => r.event.type === 'payout.paid')
    .map((r) => r.id);
  expect(paidIds[0]).toBe(paidIds[1]);

  // The event's JSON.
  await rows.filter({ hasText: 'Payout paid' }).first().getByRole('link', { name: 'Payout paid' }).click();
  const json = JSON.parse((await page.getByTestId('event-json').textContent())!);
  expect(json).toMatchObject({ object: 'event', type: 'payout.paid', data: { object: { id, status: 'paid', account_last4: '0003' } } });

  // Rotate (a new secret, once), disable, delete.
  await page.getByRole('link', { name: '← Webhooks' }).click();
  await card.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = (await card.getByTestId('one-time-secret').textContent())!;
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await card.getByRole('button', { name: 'Done' }).click();
  await expect(card).toContainText('previous secret signs until');
  await card.getByRole('button', { name: 'Disable' }).click();
  await expect(card).toContainText('Disabled by the merchant.');
  page.once('dialog', (dialog) => dialog.accept());
  await card.getByRole('button', { name: 'Delete' }).click();
  await expect(card).toHaveCount(0);
});
