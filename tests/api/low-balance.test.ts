// Low-balance alerts (docs/api.md, "Low-balance alerts"): one balance.low when available falls below the
// threshold, one balance.recovered when it is back, whatever path moved it; over real HTTP on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { callApi, useTestApi, withdrawal, type ApiResult } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { useWebhookDelivery } from '../helpers/webhook-delivery';
import type { JsonAnswer } from '../helpers/json-answer';

type Call = (body: Record<string, unknown>, opts?: { idempotencyKey?: string }) => Promise<ApiResult<JsonAnswer>>;

describe.each(backends)('low-balance alerts ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 0, settings: { settlementDelaySeconds: 3600 } });

  async function shop(opening: number) {
    const m = await createMerchant(api().db, { name: 'Thin margins', openingBalance: opening });
    const call: Call = (body, opts) => callApi(api().url, m.secretKey, body, opts);
    return { m, call };
  }
  /** The merchant's balance events, oldest first: [type, available, threshold]. */
  async function alerts(call: Call) {
    const low = (await call({ action: 'list_events', type: 'balance.low', limit: 100 })).body.data;
    const up = (await call({ action: 'list_events', type: 'balance.recovered', limit: 100 })).body.data;
    return [...low, ...up]
      .sort((a: JsonAnswer, b: JsonAnswer) => a.created_at.localeCompare(b.created_at) || a.data.object.available - b.data.object.available)
      .map((e: JsonAnswer) => [e.type, e.data.object.available, e.data.object.low_balance_threshold]);
  }
  const setThreshold = (call: Call, low_balance_threshold: number | null) =>
    call({ action: 'update_account_settings', low_balance_threshold });

  it('a threshold above the balance sends balance.low at once; later withdrawals send no more; back at the threshold, one balance.recovered', async () => {
    const { call } = await shop(500_000);
    expect((await setThreshold(call, 600_000)).status).toBe(200);
    const [event] = (await call({ action: 'list_events', type: 'balance.low' })).body.data;
    expect(event.data.object).toEqual({ object: 'balance', available: 500_000, low_balance_threshold: 600_000, currency: 'IDR' });
    await call(withdrawal(100_000));
    await call(withdrawal(100_000));
    // Raising the threshold while low changes nothing: the alert is already on.
    await setThreshold(call, 700_000);
    expect(await alerts(call)).toEqual([['balance.low', 500_000, 600_000]]);
    await call({ action: 'create_test_topup', amount: 300_000 }); // 600,000: still below 700,000
    expect(await alerts(call)).toHaveLength(1);
    await call({ action: 'create_test_topup', amount: 100_000 }); // 700,000: back at the threshold
    await call({ action: 'create_test_topup', amount: 100_000 });
    expect(await alerts(call)).toEqual([
      ['balance.low', 500_000, 600_000],
      ['balance.recovered', 700_000, 700_000],
    ]);
    // Below again: a second episode, one more balance.low.
    await call(withdrawal(200_000));
    await call(withdrawal(100_000));
    expect((await alerts(call)).slice(2)).toEqual([['balance.low', 600_000, 700_000]]);
  });

  it('a threshold below the balance, or none, sends nothing; removing the threshold ends an alert without an event', async () => {
    const { call } = await shop(500_000);
    await setThreshold(call, 100_000);
    await setThreshold(call, null);
    expect(await alerts(call)).toEqual([]);
    await setThreshold(call, 900_000);
    await setThreshold(call, null);
    await call(withdrawal(400_000));
    expect(await alerts(call)).toEqual([['balance.low', 500_000, 900_000]]);
    // A threshold again, above the balance: low at once; lowered under the balance: recovered.
    await setThreshold(call, 200_000);
    await setThreshold(call, 50_000);
    expect((await alerts(call)).slice(1)).toEqual([
      ['balance.low', 100_000, 200_000],
      ['balance.recovered', 100_000, 50_000],
    ]);
  });

  it('every path that moves available counts: a batch, failed settlements, a checkout payment, a refund', async () => {
    const { m, call } = await shop(1_000_000);
    await setThreshold(call, 500_000);
    const batch = await call({
      action: 'create_payout_batch',
      payouts: [
        { amount: 300_000, bank_code: 'BCA', account_number: '4000000001' },
        { amount: 300_000, bank_code: 'BNI', account_number: '4000000002' },
      ],
    });
    expect(batch.status, batch.text).toBe(200);
    expect(await alerts(call)).toEqual([['balance.low', 400_000, 500_000]]);
    // Both fail at settlement: the money comes back, one balance.recovered.
    await api().db.query(`UPDATE payouts SET settle_after = now() WHERE merchant_id = $1`, [m.id]);
    await settleDuePayouts(api().db);
    expect((await alerts(call)).slice(1)).toEqual([['balance.recovered', 1_000_000, 500_000]]);
    // A refund takes the balance below, a payment brings it back.
    const cs = (await call({ action: 'create_checkout_session', amount: 600_000 })).body;
    await call({ action: 'simulate_checkout_payment', id: cs.id });
    await call(withdrawal(1_000_000)); // 600,000: still above
    expect((await alerts(call)).length).toBe(2);
    const refund = await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 200_000 });
    expect(refund.status, refund.text).toBe(200);
    expect((await alerts(call)).slice(2)).toEqual([['balance.low', 400_000, 500_000]]);
  });

  it('is exact under concurrency: many withdrawals across the threshold at once send one balance.low', async () => {
    const { call } = await shop(2_000_000);
    await setThreshold(call, 1_000_000);
    const results = await Promise.all(Array.from({ length: 30 }, () => call(withdrawal(60_000))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    await Promise.all(Array.from({ length: 20 }, () => call({ action: 'create_test_topup', amount: 60_000 })));
    expect(await alerts(call)).toEqual([
      ['balance.low', expect.any(Number), 1_000_000],
      ['balance.recovered', expect.any(Number), 1_000_000],
    ]);
    const [low, up] = await alerts(call);
    expect(low![1]).toBeLessThan(1_000_000);
    expect(up![1]).toBeGreaterThanOrEqual(1_000_000);
  });

  describe('delivery', () => {
    const receiver = useWebhookDelivery(api, [0.2]);

    it('balance.low and balance.recovered reach a subscribed receiver, signed; an endpoint for other types hears nothing', async () => {
      const { call } = await shop(100_000);
      const ep = await call({
        action: 'create_webhook_endpoint',
        url: receiver().endpoint('/balance'),
        enabled_events: ['balance.low', 'balance.recovered'],
      });
      receiver().trust('/balance', ep.body.secret);
      await call({ action: 'create_webhook_endpoint', url: receiver().endpoint('/payouts-only'), enabled_events: ['payout.paid'] });
      await setThreshold(call, 150_000);
      await call({ action: 'create_test_topup', amount: 50_000 });
      await expect.poll(() => receiver().at('/balance').length, { timeout: 15_000, interval: 50 }).toBe(2);
      const got = receiver().at('/balance');
      expect(got.every((r) => r.verified)).toBe(true);
      expect(got.map((r) => [r.event.type, r.event.data.object])).toEqual([
        ['balance.low', { object: 'balance', available: 100_000, low_balance_threshold: 150_000, currency: 'IDR' }],
        ['balance.recovered', { object: 'balance', available: 150_000, low_balance_threshold: 150_000, currency: 'IDR' }],
      ]);
      expect(receiver().at('/payouts-only')).toEqual([]);
    });
  });
});
