// The money mix with refunds: concurrent payments, withdrawals, full and partial refunds (duplicated
// and racing each other), failing refunds and settlement in the background. Afterwards the money
// invariant holds exactly: available + pending payouts + pending refunds = everything in - everything out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_FAILING_TEST_CARD } from '@/lib/contract';
import { callApi, withdrawal, type ApiResult } from '../helpers/api-server';
import { isExact, refundCheck } from '../../testing/ledger';
import { DEMO_KEY } from '../../testing/server-process';
import { Deployment, stressBackends } from './deployment';
import { recordFigures, SIZE } from './figures';
import { runPool, shuffle } from './load';

const MIX = SIZE === 'quick' ? { sessions: 40, rounds: 3 } : { sessions: 150, rounds: 5 };

describe.each(stressBackends)('refunds in the money mix on %s', (backend) => {
  let d: Deployment;
  beforeAll(async () => {
    // Two instances on PostgreSQL, so refunds of one session race across processes; settlement after 0.5 s.
    d = await Deployment.create(backend, backend === 'postgres' ? ['standalone', 'standalone'] : ['standalone'], {
      SETTLEMENT_DELAY_SECONDS: '0.5',
    });
  }, 300_000);
  afterAll(() => d?.close());

  it(`${MIX.sessions} paid sessions refunded ${MIX.rounds} rounds over, against withdrawals: no 5xx, no session refunded beyond its amount, money exact`, async () => {
    const { merchantId } = await d.balance();
    const url = (i: number) => d.servers[i % d.servers.length]!.url;
    const call = (i: number, body: Record<string, unknown>, key: string) => callApi(url(i), DEMO_KEY, body, { idempotencyKey: key });

    // Paid sessions, one in four with the card whose refunds fail.
    const sessions = await runPool(
      Array.from({ length: MIX.sessions }, (_, i) => i),
      8,
      async (i) => {
        const s = (await call(i, { action: 'create_checkout_session', amount: 10_000 + 1_000 * (i % 7) }, `cs-${i}`)).body;
        const card = i % 4 === 0 ? REFUND_FAILING_TEST_CARD : '4242424242424242';
        const res = await call(i + 1, { action: 'simulate_checkout_payment', id: s.id, card_number: card }, `pay-${i}`);
        expect(res.status, res.text).toBe(200);
        return res.body as { id: string; amount: number };
      },
    );

    const answers: ApiResult[] = [];
    for (let round = 0; round < MIX.rounds; round++) {
      // Each session: a full refund twice at once (one key each), a partial, a duplicate of the partial's key; and withdrawals.
      const ops = shuffle([
        ...sessions.flatMap((s, i) => [
          { body: { action: 'create_refund', checkout_session_id: s.id }, key: `full-${round}-${i}-a` },
          { body: { action: 'create_refund', checkout_session_id: s.id, amount: s.amount }, key: `full-${round}-${i}-b` },
          { body: { action: 'create_refund', checkout_session_id: s.id, amount: 3_000 }, key: `part-${round}-${i}` },
          { body: { action: 'create_refund', checkout_session_id: s.id, amount: 3_000 }, key: `part-${round}-${i}` },
        ]),
        ...Array.from({ length: MIX.sessions }, (_, i) => ({ body: withdrawal(10_000), key: `wd-${round}-${i}` })),
      ]);
      answers.push(...(await runPool(ops, 24, (op, i) => call(i, op.body, op.key))));
      // Settle some refunds now, fail a few, let the job settle the rest.
      const pending = (await callApi(url(round), DEMO_KEY, { action: 'list_refunds', status: 'pending', limit: 20 })).body.data as {
        id: string;
      }[];
      await runPool(pending, 4, (r, i) =>
        call(i, { action: 'simulate_refund', id: r.id, ...(i % 3 === 0 ? { outcome: 'failed' } : {}) }, `sim-${r.id}`),
      );
    }

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Every refusal is one of the expected ones; in-progress 409s of the duplicate keys aside, nothing else.
    const codes = new Set(answers.filter((a) => a.status !== 200).map((a) => a.body?.error?.code));
    for (const code of codes)
      expect(['refund_amount_exceeded', 'insufficient_funds', 'refund_not_pending', 'idempotency_request_in_progress']).toContain(code);

    // Let the job settle what is left, then check everything from the database.
    await new Promise((r) => setTimeout(r, 2_500));
    const result = await d.inspect(async (db) => {
      const check = await refundCheck(db, merchantId);
      const [bound] = await db.query<{ over: number; refunds: number; failed: number; pending: number }>(
        `SELECT (SELECT count(*) FROM checkout_sessions s WHERE s.merchant_id = $1 AND
                   (SELECT COALESCE(SUM(amount), 0) FROM refunds r WHERE r.checkout_session_id = s.id AND r.status <> 'failed') > s.amount)::int AS over,
                (SELECT count(*) FROM refunds WHERE merchant_id = $1)::int AS refunds,
                (SELECT count(*) FROM refunds WHERE merchant_id = $1 AND status = 'failed')::int AS failed,
                (SELECT count(*) FROM refunds WHERE merchant_id = $1 AND status = 'pending')::int AS pending`,
        [merchantId],
      );
      const [entries] = await db.query<{ refunds: number; reversals: number; created: number; failedEvents: number }>(
        `SELECT (SELECT count(*) FROM ledger_entries WHERE merchant_id = $1 AND kind = 'refund')::int AS refunds,
                (SELECT count(*) FROM ledger_entries WHERE merchant_id = $1 AND kind = 'refund_reversal')::int AS reversals,
                (SELECT count(*) FROM events WHERE merchant_id = $1 AND type = 'refund.created')::int AS created,
                (SELECT count(*) FROM events WHERE merchant_id = $1 AND type = 'refund.failed')::int AS "failedEvents"`,
        [merchantId],
      );
      return { check, bound: bound!, entries: entries! };
    });
    expect(result.bound.over).toBe(0);
    expect(result.check.sessionsOff).toBe(0);
    expect(result.check.available).toBe(result.check.ledger);
    expect(result.check.pendingRefunds).toBe(result.check.pendingRefundSum);
    expect(result.check.held).toBe(result.check.inMinusOut);
    expect(isExact(result.check)).toBe(true);
    // One ledger entry and one refund.created per refund; one reversal and one refund.failed per failed refund.
    expect(result.entries).toEqual({
      refunds: result.bound.refunds,
      reversals: result.bound.failed,
      created: result.bound.refunds,
      failedEvents: result.bound.failed,
    });
    recordFigures(`refunds mix on ${backend} (${d.servers.length} instance${d.servers.length > 1 ? 's' : ''})`, {
      requests: answers.length,
      refunds: result.bound.refunds,
      failed: result.bound.failed,
      'still pending': result.bound.pending,
      refused: answers.filter((a) => a.status === 422).length,
      '5xx': statuses.filter((s) => s >= 500).length,
      'sessions over-refunded': result.bound.over,
      'available = ledger': result.check.available === result.check.ledger,
      'held = in - out': result.check.held === result.check.inMinusOut,
    });
  }, 300_000);
});
