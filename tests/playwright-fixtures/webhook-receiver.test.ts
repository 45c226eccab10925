// The fixtures package's parts that need no browser: durations, and the webhook receiver's verification and wait.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { toSeconds } from '@/packages/playwright/src/duration';
import { WebhookReceiver } from '@/packages/playwright/src/webhook-receiver';

const secret = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;

async function deliver(url: string, event: { id: string; type: string; data: { object: Record<string, unknown> } }, key = secret) {
  const body = JSON.stringify({ object: 'event', created_at: new Date().toISOString(), livemode: false, ...event });
  const at = new Date();
  const signature = new Webhook(key).sign(event.id, at, body);
  const headers = { 'webhook-id': event.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

describe('merchant-payments-playwright', () => {
  it('reads durations as seconds, and refuses what is not one', () => {
    expect(toSeconds('3d')).toBe(259_200);
    expect(toSeconds('1d 12h')).toBe(129_600);
    expect(toSeconds('90m')).toBe(5_400);
    expect(toSeconds(45)).toBe(45);
    expect(() => toSeconds('3 days')).toThrow(/not a duration/);
    expect(() => toSeconds(-1)).toThrow(RangeError);
  });

  it('hands each verified event to one wait, waits for one still to come, and fails naming what arrived', async () => {
    const receiver = await WebhookReceiver.start();
    receiver.useSecret(secret);
    try {
      await deliver(receiver.url(), { id: 'evt_1', type: 'payout.created', data: { object: { id: 'po_1' } } });
      const later = receiver.next('payout.paid', { payoutId: 'po_1' }, { timeoutMs: 5_000 });
      await deliver(receiver.url(), { id: 'evt_2', type: 'payout.paid', data: { object: { id: 'po_2' } } });
      await deliver(receiver.url(), { id: 'evt_3', type: 'payout.paid', data: { object: { id: 'po_1' } } });
      expect((await later).id).toBe('evt_3');
      expect((await receiver.next('payout.paid')).id).toBe('evt_2');
      await expect(receiver.next('payout.returned', { payoutId: 'po_1' }, { timeoutMs: 100 })).rejects.toThrow(
        'no payout.returned event about po_1 arrived; what did: payout.created po_1, payout.paid po_2, payout.paid po_1',
      );
      // A delivery signed with another secret fails the wait: a test never passes on a forged event.
      await deliver(
        receiver.url(),
        { id: 'evt_4', type: 'payout.failed', data: { object: { id: 'po_9' } } },
        `whsec_${Buffer.from('b'.repeat(32)).toString('base64')}`,
      );
      await expect(receiver.next('payout.failed', {}, { timeoutMs: 100 })).rejects.toThrow(/signature/i);
    } finally {
      await receiver.close();
    }
  });

  it('with webhookHost, listens where the API reaches this machine and names that host in the endpoint URL', async () => {
    // 127.0.0.2 stands for another address of this machine: loopback too, but not the one a default receiver listens on.
    const local = await WebhookReceiver.start();
    const reached = await WebhookReceiver.start('127.0.0.2');
    reached.useSecret(secret);
    try {
      expect(new URL(local.url()).hostname).toBe('127.0.0.1');
      const other = new URL(local.url());
      other.hostname = '127.0.0.2';
      await expect(fetch(other, { method: 'POST', body: '{}' })).rejects.toThrow();
      expect(new URL(reached.url()).hostname).toBe('127.0.0.2');
      await deliver(reached.url(), { id: 'evt_h', type: 'payout.paid', data: { object: { id: 'po_h' } } });
      expect((await reached.next('payout.paid', { payoutId: 'po_h' })).id).toBe('evt_h');
    } finally {
      await Promise.all([local.close(), reached.close()]);
    }
  });
});
