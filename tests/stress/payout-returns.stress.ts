// Returned payouts under retries and races: every paid payout returned by many concurrent simulate_payout calls
// (retries of one request under one idempotency key, and fresh requests under keys of their own, across two
// instances on PostgreSQL), while the due-returns job returns the test account 4000000004's payouts on its own.
// Afterwards: one payout_return entry and one payout.returned event per returned payout, money exact; and the
// low-balance alerts the mix crossed alternate balance.low / balance.recovered, each on the right side of the threshold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, withdrawal, type ApiResult } from '../helpers/api-server';
import { isExact, refundCheck } from '../../testing/ledger';
import { DEMO_KEY } from '../../testing/server-process';
import { Deployment, stressBackends } from './deployment';
import { recordFigures, SIZE } from './figures';
import { runPool, shuffle } from './load';

const MIX = SIZE === 'quick' ? { payouts: 30, racers: 6 } : { payouts: 120, racers: 8 };

describe.each(stressBackends)('returned payouts under concurrent retries on %s', (backend) => {
  let d: Deployment;
  beforeAll(async () => {
    d = await Deployment.create(backend, backend === 'postgres' ? ['standalone', 'standalone'] : ['standalone'], {
      SETTLEMENT_DELAY_SECONDS: '0.5',
    });
  }, 300_000);
  afterAll(() => d?.close());

  it(`${MIX.payouts} paid payouts, each returned by ${MIX.racers} racing requests: one return entry and one event each, money exact`, async () => {
    const { merchantId, available: opening } = await d.balance();
    const url = (i: number) => d.servers[i % d.servers.length]!.url;
    const call = (i: number, body: Record<string, unknown>, key?: string) =>
      callApi(url(i), DEMO_KEY, body, key ? { idempotencyKey: key } : undefined);

    // A threshold the withdrawals and returns cross back and forth: the alerts are checked at the end.
    const threshold = opening - 20_000 * Math.floor(MIX.payouts / 2);
    expect((await call(0, { action: 'update_account_settings', low_balance_threshold: threshold })).status).toBe(200);

    // Payouts, one in three to 4000000004 (the job returns those too, racing the simulated returns).
    const made = await runPool(
      Array.from({ length: MIX.payouts }, (_, i) => i),
      8,
      async (i) => {
        const res = await call(i, withdrawal(20_000, { account_number: i % 3 === 0 ? '4000000004' : '5550001234' }), `wd-${i}`);
        expect(res.status, res.text).toBe(200);
        return res.body.id as string;
      },
    );
    // Paid by the settlement job (0.5 s), or by simulate_payout if a test call gets there first.
    await runPool(made, 8, (id, i) => call(i, { action: 'simulate_payout', id, outcome: 'paid' }, `paid-${id}`));
    const paid = await runPool(made, 8, async (id, i) => (await call(i, { action: 'get_payout', id })).body);
    expect(paid.every((p) => p.status === 'paid' || p.status === 'returned')).toBe(true);

    // Each payout: half the racers retry one request (one key), the others are fresh requests (a key each).
    const ops = shuffle(
      made.flatMap((id) =>
        Array.from({ length: MIX.racers }, (_, r) => ({
          id,
          key: r < MIX.racers / 2 ? `ret-${id}` : `ret-${id}-${r}`,
        })),
      ),
    );
    const answers: ApiResult[] = await runPool(ops, 24, (op, i) =>
      call(i, { action: 'simulate_payout', id: op.id, outcome: 'returned' }, op.key),
    );
    // Let the job return what is due.
    await new Promise((r) => setTimeout(r, 2_000));

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const codes = new Set(answers.filter((a) => a.status !== 200).map((a) => a.body?.error?.code));
    for (const code of codes) expect(['payout_not_paid', 'idempotency_request_in_progress']).toContain(code);
    // Every 200 answers the payout returned.
    expect(answers.filter((a) => a.status === 200).every((a) => a.body.status === 'returned')).toBe(true);

    const result = await d.inspect(async (db) => {
      const check = await refundCheck(db, merchantId);
      const [counts] = await db.query<{ returned: number; entries: number; events: number; doubled: number; closed: number }>(
        `SELECT (SELECT count(*) FROM payouts WHERE merchant_id = $1 AND status = 'returned')::int AS returned,
                (SELECT count(*) FROM ledger_entries WHERE merchant_id = $1 AND kind = 'payout_return')::int AS entries,
                (SELECT count(*) FROM events WHERE merchant_id = $1 AND type = 'payout.returned')::int AS events,
                (SELECT count(*) FROM (SELECT reference_id FROM ledger_entries WHERE merchant_id = $1 AND kind = 'payout_return'
                   GROUP BY 1 HAVING count(*) > 1) x)::int AS doubled,
                (SELECT count(*) FROM payouts WHERE merchant_id = $1 AND status = 'returned' AND failure_code = 'account_closed')::int AS closed`,
        [merchantId],
      );
      const alerts = await db.query<{ type: string; available: number; threshold: number }>(
        `SELECT type, (data->>'available')::bigint AS available, (data->>'low_balance_threshold')::bigint AS threshold
         FROM events WHERE merchant_id = $1 AND type IN ('balance.low', 'balance.recovered') ORDER BY seq`,
        [merchantId],
      );
      const [balance] = await db.query<{ available: number }>('SELECT available FROM balances WHERE merchant_id = $1', [merchantId]);
      return { check, counts: counts!, alerts, available: Number(balance!.available) };
    });
    expect(result.counts).toEqual({
      returned: MIX.payouts,
      entries: MIX.payouts,
      events: MIX.payouts,
      doubled: 0,
      closed: MIX.payouts,
    });
    expect(isExact(result.check)).toBe(true);
    expect(result.available).toBe(opening);
    // Low, recovered, low, recovered…: never two of a kind in a row, each on its side of the threshold; back above at the end.
    expect(result.alerts.length).toBeGreaterThanOrEqual(2);
    result.alerts.forEach((a, i) => {
      expect(a.type).toBe(i % 2 === 0 ? 'balance.low' : 'balance.recovered');
      expect(Number(a.threshold)).toBe(threshold);
      if (a.type === 'balance.low') expect(Number(a.available)).toBeLessThan(threshold);
      else expect(Number(a.available)).toBeGreaterThanOrEqual(threshold);
    });
    expect(result.alerts.at(-1)!.type).toBe('balance.recovered');

    recordFigures(`payout returns on ${backend} (${d.servers.length} instance${d.servers.length > 1 ? 's' : ''})`, {
      payouts: MIX.payouts,
      'return requests': answers.length,
      'answered 200': statuses.filter((s) => s === 200).length,
      'answered 409': statuses.filter((s) => s === 409).length,
      '5xx': statuses.filter((s) => s >= 500).length,
      'payout_return entries': result.counts.entries,
      'payout.returned events': result.counts.events,
      'balance alerts': result.alerts.length,
      'held = in - out': result.check.held === result.check.inMinusOut,
    });
  }, 300_000);
});
