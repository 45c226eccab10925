// Events and webhooks under load: kill -9 of the server while a slow receiver is being called, and
// two instances sharing the delivery work on one PostgreSQL. Afterwards every payout has exactly
// its two events, every event reached the receiver (at least once; exactly once without crashes),
// and the receiver got nothing that no state change caused.
import { afterAll, describe, expect, it } from 'vitest';
import { callApi, withdrawal } from '../helpers/api-server';
import { callUntilAnswered } from '../helpers/retrying-client';
import { DEMO_KEY } from '../../testing/server-process';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { Deployment, stressBackends } from './deployment';
import { recordFigures, STRESS } from './figures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Quick settlement and retries, so the run ends in seconds; a 1 s attempt timeout, so a lease is 6 s.
const ENV = { SETTLEMENT_DELAY_SECONDS: '0.3', WEBHOOK_TIMEOUT_SECONDS: '1', WEBHOOK_RETRY_DELAYS_SECONDS: '0.3,0.5,1,1,1,1,1,1,1,1,1,1' };
// Paid, and the two accounts the test bank refuses: both outcomes, each with its event.
const ACCOUNTS = ['1234567890', '4000000001', '9876543210123', '4000000002'];

let receiver: WebhookReceiver;
afterAll(() => receiver?.close());

async function addEndpoint(url: string, path: string, script: Parameters<WebhookReceiver['endpoint']>[1]) {
  receiver ??= await startWebhookReceiver();
  const res = await callApi(url, DEMO_KEY, { action: 'create_webhook_endpoint', url: receiver.endpoint(path, script) });
  expect(res.status, res.text).toBe(200);
  receiver.trust(path, res.body.secret);
}

/** Waits until nothing is pending: every payout settled and every delivery ended (through the API). */
async function drained(url: string) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(250)) {
    const payouts = await callApi(url, DEMO_KEY, { action: 'list_payouts', status: 'pending', limit: 1 });
    const deliveries = await callApi(url, DEMO_KEY, { action: 'list_webhook_deliveries', status: 'pending', limit: 1 });
    if (payouts.body?.data?.length === 0 && deliveries.body?.data?.length === 0) return;
  }
  throw new Error('payouts or deliveries still pending after 120 s');
}

/** Every payout has one payout.created and one payout.paid or payout.failed; no other event exists. */
async function checkEvents(d: Deployment, merchantId: string) {
  return d.inspect(async (db) => {
    const payouts = await db.query<{ id: string; status: string }>('SELECT id, status FROM payouts WHERE merchant_id = $1', [merchantId]);
    const events = await db.query<{ id: string; type: string; object_id: string }>(
      'SELECT id, type, object_id FROM events WHERE merchant_id = $1',
      [merchantId],
    );
    const failedDeliveries = await db.query(`SELECT id FROM webhook_deliveries WHERE status <> 'succeeded'`);
    return { payouts, events, failedDeliveries };
  });
}

function expectExactEvents(payouts: { id: string; status: string }[], events: { type: string; object_id: string }[]) {
  const byPayout = new Map<string, string[]>();
  for (const e of events) byPayout.set(e.object_id, [...(byPayout.get(e.object_id) ?? []), e.type].sort());
  for (const p of payouts) expect(byPayout.get(p.id), p.id).toEqual(['payout.created', `payout.${p.status}`].sort());
  expect(events.length).toBe(payouts.length * 2); // none that no state change caused
}

describe.each(stressBackends)('webhooks under crashes on %s', (backend) => {
  it(`delivers every event at least once through ${STRESS.crashes} kill -9 with a slow receiver`, async () => {
    const d = await Deployment.create(backend, ['standalone'], ENV);
    try {
      const server = d.servers[0]!;
      const path = `/slow-${backend}`;
      await addEndpoint(server.url, path, [{ status: 200, delayMs: 150 }]);
      const { merchantId } = await d.balance();
      let killing = true;
      let sent = 0;
      const client = async (c: number) => {
        for (let n = 0; killing || n < 5; n++) {
          sent++;
          const body = withdrawal(10_000 + n, { account_number: ACCOUNTS[(c + n) % ACCOUNTS.length] });
          await callUntilAnswered(() => server.url, DEMO_KEY, body, { idempotencyKey: `wh-crash-${c}-${n}`, deadlineMs: 120_000 });
          await sleep(30);
        }
      };
      const killer = async () => {
        for (let k = 0; k < STRESS.crashes; k++) {
          await sleep(500 + Math.random() * 700);
          await server.kill9();
          await server.start();
        }
        killing = false;
      };
      await Promise.all([killer(), ...Array.from({ length: 4 }, (_, c) => client(c))]);
      await drained(server.url);

      const { payouts, events, failedDeliveries } = await checkEvents(d, merchantId);
      expectExactEvents(payouts, events);
      expect(failedDeliveries).toEqual([]);
      const got = receiver.at(path);
      const receivedIds = new Set(got.map((r) => r.id));
      for (const e of events) expect(receivedIds.has(e.id), `event ${e.id} (${e.type}) never arrived`).toBe(true);
      const eventIds = new Set(events.map((e) => e.id));
      expect(got.filter((r) => !eventIds.has(r.id))).toEqual([]);
      expect(got.every((r) => r.verified)).toBe(true);
      recordFigures(`webhooks through crashes on ${backend}`, {
        'kill -9 survived': STRESS.crashes,
        withdrawals: sent,
        payouts: payouts.length,
        events: events.length,
        'requests received': got.length,
        'received more than once (after a crash)': got.length - receivedIds.size,
      });
    } finally {
      await d.close();
    }
  });
});

describe.runIf(stressBackends.includes('postgres'))('webhooks from two instances on one PostgreSQL', () => {
  it('share the deliveries without sending any event twice', async () => {
    const d = await Deployment.create('postgres', ['standalone', 'standalone'], ENV);
    try {
      const [a, b] = d.servers as [(typeof d.servers)[0], (typeof d.servers)[0]];
      const path = '/shared';
      await addEndpoint(a!.url, path, [{ status: 200, delayMs: 20 }]);
      const { merchantId } = await d.balance();
      await Promise.all(
        Array.from({ length: 6 }, async (_, c) => {
          for (let n = 0; n < STRESS.crashKeys / 4; n++) {
            const server = (c + n) % 2 ? a! : b!;
            const res = await callApi(server.url, DEMO_KEY, withdrawal(10_000 + n, { account_number: ACCOUNTS[n % ACCOUNTS.length] }));
            expect(res.status, res.text).toBe(200);
          }
        }),
      );
      await drained(a!.url);
      const { payouts, events, failedDeliveries } = await checkEvents(d, merchantId);
      expectExactEvents(payouts, events);
      expect(failedDeliveries).toEqual([]);
      const got = receiver.at(path);
      expect(got.map((r) => r.id).sort()).toEqual(events.map((e) => e.id).sort()); // each exactly once
      recordFigures('webhooks from two instances on postgres', {
        payouts: payouts.length,
        events: events.length,
        'requests received': got.length,
      });
    } finally {
      await d.close();
    }
  });
});
