// The dashboard's money in/out and the balance chart count refunds (out) and failed refunds' returns
// (in); the console's refund calls go through the SDK client like every other (lib/upstream).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFUND_FAILING_TEST_CARD } from '@/lib/contract';
import type { Db } from '@/lib/db/types';
import { endOfDayBalances } from '@/console/server/data/daily-balances';
import { moneyFlow } from '@/console/server/data/money-flow';
import { createPaymentClient } from '@/console/server/upstream/payment-client';
import { merchantApi } from '@/console/server/upstream/merchant-api';
import { refundMark } from '@/lib/format';
import { pgliteBackend } from '../../testing/databases';
import { startTestApi, type TestApi } from '../helpers/api-server';

let db: Db;
let api: TestApi;
beforeAll(async () => {
  db = await pgliteBackend.open();
  api = await startTestApi(db, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 3600 } });
});
afterAll(async () => {
  await api.close();
  await db.close();
});

it('money in and out and the closing balance count a refund and a failed refund returned', async () => {
  const client = merchantApi(createPaymentClient({ baseUrl: api.url }), api.merchant.secretKey);
  const paid = async (card?: string) => {
    const s = (await api.call({ action: 'create_checkout_session', amount: 200_000 })).body;
    return (await api.call({ action: 'simulate_checkout_payment', id: s.id, ...(card ? { card_number: card } : {}) })).body;
  };
  const good = await paid();
  const bad = await paid(REFUND_FAILING_TEST_CARD);
  const partial = (await client.createRefund({ checkout_session_id: good.id, amount: 50_000, reason: 'Broken mug' }, 'figures-1')).data;
  const replay = await client.createRefund({ checkout_session_id: good.id, amount: 50_000, reason: 'Broken mug' }, 'figures-1');
  expect([replay.data.id, replay.replayed]).toEqual([partial.id, true]);
  const doomed = (await client.createRefund({ checkout_session_id: bad.id }, 'figures-2')).data;
  expect(doomed.amount).toBe(200_000);
  await api.call({ action: 'simulate_refund', id: partial.id });
  await api.call({ action: 'simulate_refund', id: doomed.id });

  const flow = await moneyFlow(client, 1);
  // Today's figures. In: the opening balance, two payments and the failed refund's return; out: both refunds as made.
  expect([flow.moneyIn, flow.moneyOut]).toEqual([1_000_000 + 200_000 + 200_000 + 200_000, 50_000 + 200_000]);
  const balance = (await api.call({ action: 'get_balance' })).body;
  expect(balance).toMatchObject({ available: 1_000_000 + 400_000 - 50_000, pending_refunds: 0 });
  const points = await endOfDayBalances(client, 2);
  expect(points.at(-1)!.balance).toBe(balance.available);

  const refunds = (await client.listRefunds({ checkout_session_id: good.id })).data;
  expect(refunds.data.map((r) => [r.id, r.status])).toEqual([[partial.id, 'succeeded']]);
  expect((await client.getRefund(doomed.id)).data).toMatchObject({ status: 'failed', failure_code: 'expired_or_canceled_card' });
  // The list's marks: partly refunded, and (after the failed refund) nothing refunded.
  const sessions = (await client.listCheckoutSessions({ limit: 2 })).data.data;
  expect(sessions.map((s) => [s.id, refundMark(s)])).toEqual([
    [bad.id, null],
    [good.id, 'partly refunded'],
  ]);
});
