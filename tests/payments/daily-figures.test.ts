// Per-day figures (migration 010) and batch counts (013) equal the aggregate of the ledger and the payouts after any mix of
// writes on every path (a lone withdrawal, a group, a batch, settlement, a checkout payment, a
// top-up, rows of other days) and of folds; summarize_payouts and summarize_balance answer exactly
// what a scan of the history would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '@/lib/db/types';
import { payCheckoutSession } from '@/lib/payments/checkout/checkout-payment';
import { compactBatchCounts } from '@/lib/payments/payouts/batch-counts';
import { compactDailyFigures } from '@/lib/payments/ledger/daily-figures';
import { compactLedgerFigures } from '@/lib/payments/ledger/ledger-figures';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';

const DAY = 86_400_000;
const ACCOUNTS = ['1234567890', '4000000001', '4000000002', '5550001234'];

const step = fc.oneof(
  fc.record({
    kind: fc.constant('withdraw' as const),
    amount: fc.integer({ min: 10_000, max: 90_000 }),
    account: fc.constantFrom(...ACCOUNTS),
  }),
  // Concurrent withdrawals: committed together as a group.
  fc.record({ kind: fc.constant('group' as const), n: fc.integer({ min: 2, max: 6 }), amount: fc.integer({ min: 10_000, max: 50_000 }) }),
  fc.record({ kind: fc.constant('batch' as const), n: fc.integer({ min: 1, max: 20 }), account: fc.constantFrom(...ACCOUNTS) }),
  fc.record({ kind: fc.constant('checkout' as const), amount: fc.integer({ min: 1_000, max: 300_000 }) }),
  fc.record({ kind: fc.constant('topup' as const), amount: fc.integer({ min: 1, max: 500_000 }) }),
  fc.record({ kind: fc.constant('settle' as const), batchSize: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('compact' as const), limit: fc.integer({ min: 1, max: 10 }) }),
  // Rows of earlier days (history written before this run): so that days, boundaries and carried balances are exercised.
  fc.record({
    kind: fc.constant('past' as const),
    daysAgo: fc.integer({ min: 1, max: 9 }),
    hour: fc.integer({ min: 0, max: 23 }),
    amount: fc.integer({ min: 1, max: 100_000 }),
  }),
);

/** The figures, summed per key, against the same aggregate computed from the rows themselves. */
async function expectFiguresExact(db: Queryable, merchantId: string) {
  const [diff] = await db.query<{ balance: number; payouts: number; batches: number }>(
    `WITH fig AS (
       SELECT day, sum(money_in) AS i, sum(money_out) AS o, sum(entries) AS n,
              (array_agg(closing_balance ORDER BY closing_entry_id DESC))[1] AS c
       FROM balance_daily WHERE merchant_id = $1 GROUP BY day),
     raw AS (
       SELECT (created_at AT TIME ZONE 'UTC')::date AS day, COALESCE(sum(amount) FILTER (WHERE amount > 0), 0) AS i,
              COALESCE(-sum(amount) FILTER (WHERE amount < 0), 0) AS o, count(*) AS n, (array_agg(balance_after ORDER BY id DESC))[1] AS c
       FROM ledger_entries WHERE merchant_id = $1 GROUP BY 1),
     pfig AS (SELECT day, status, sum(count) AS n, sum(total) AS t FROM payout_daily WHERE merchant_id = $1 GROUP BY 1, 2 HAVING sum(count) <> 0),
     praw AS (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, status, count(*) AS n, sum(amount) AS t FROM payouts WHERE merchant_id = $1 GROUP BY 1, 2),
     bfig AS (
       SELECT batch_id, status, sum(count) AS n FROM payout_batch_counts
       WHERE batch_id IN (SELECT id FROM payout_batches WHERE merchant_id = $1) GROUP BY 1, 2 HAVING sum(count) <> 0),
     braw AS (SELECT batch_id, status, count(*) AS n FROM payouts WHERE merchant_id = $1 AND batch_id IS NOT NULL GROUP BY 1, 2)
     SELECT (SELECT count(*) FROM ((SELECT * FROM fig EXCEPT SELECT * FROM raw) UNION ALL (SELECT * FROM raw EXCEPT SELECT * FROM fig)) d)::int AS balance,
            (SELECT count(*) FROM ((SELECT * FROM pfig EXCEPT SELECT * FROM praw) UNION ALL (SELECT * FROM praw EXCEPT SELECT * FROM pfig)) d)::int AS payouts,
            (SELECT count(*) FROM ((SELECT * FROM bfig EXCEPT SELECT * FROM braw) UNION ALL (SELECT * FROM braw EXCEPT SELECT * FROM bfig)) d)::int AS batches`,
    [merchantId],
  );
  expect(diff).toEqual({ balance: 0, payouts: 0, batches: 0 });
}

describe.each(backends)('per-day figures ($name)', (backend) => {
  const api = useTestApi(backend, { settings: { settlementDelaySeconds: 0 } });

  it('equal the aggregate of the ledger and the payouts after any mix of writes and folds, and the summaries answer from them exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 14 }),
        fc.array(fc.integer({ min: 0, max: 10 * 24 }), { minLength: 2, maxLength: 2 }),
        async (steps, cut) => {
          const { db, url } = api();
          const m = await createMerchant(db, { name: 'Figures', openingBalance: 2_000_000 });
          const call = (body: unknown) => callApi(url, m.secretKey, body);
          for (const s of steps) {
            if (s.kind === 'withdraw')
              expect([200, 422]).toContain((await call(withdrawal(s.amount, { account_number: s.account }))).status);
            else if (s.kind === 'group') {
              const all = await Promise.all(
                Array.from({ length: s.n }, (_, i) => call(withdrawal(s.amount + i, { account_number: ACCOUNTS[i % 4] }))),
              );
              for (const r of all) expect([200, 422]).toContain(r.status);
            } else if (s.kind === 'batch') {
              const payouts = Array.from({ length: s.n }, (_, i) => ({ amount: 10_000 + i, bank_code: 'BCA', account_number: s.account }));
              expect([200, 422]).toContain((await call({ action: 'create_payout_batch', payouts })).status);
            } else if (s.kind === 'checkout') {
              const session = await call({ action: 'create_checkout_session', amount: s.amount });
              await payCheckoutSession(db, session.body.id, '4242424242424242', url);
            } else if (s.kind === 'topup') expect((await call({ action: 'create_test_topup', amount: s.amount })).status).toBe(200);
            else if (s.kind === 'settle') await settleDuePayouts(db, { batchSize: s.batchSize });
            else if (s.kind === 'compact') {
              await compactDailyFigures(db, s.limit);
              await compactLedgerFigures(db, s.limit);
              await compactBatchCounts(db, s.limit);
            } else {
              const at = new Date(Math.floor(Date.now() / DAY) * DAY - s.daysAgo * DAY + s.hour * 3_600_000).toISOString();
              await db.query(
                `WITH bal AS (UPDATE balances SET available = available + $2 WHERE merchant_id = $1 RETURNING available)
               INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at)
               SELECT $1, $2, available, 'adjustment', 'past', $3 FROM bal`,
                [m.id, s.amount, at],
              );
              await db.query(
                `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, created_at)
               VALUES ('po_past' || md5(random()::text), $1, $2, 'IDR', 'BCA', '5550001234', $3, $4, $4)`,
                [m.id, s.amount, s.hour % 2 ? 'paid' : 'failed', at],
              );
            }
          }
          await expectFiguresExact(db, m.id);

          // summarize_payouts for filters whose boundaries fall on and between midnights, against a scan.
          const base = Math.floor(Date.now() / DAY) * DAY - 9 * DAY;
          const [from, to] = cut.map((h) => new Date(base + h * 3_600_000).toISOString()).sort();
          for (const status of [undefined, 'pending', 'paid', 'failed'] as const) {
            for (const range of [{}, { created_gte: from }, { created_lt: to }, { created_gte: from, created_lt: to }]) {
              const filter = { ...(status ? { status } : {}), ...range };
              const res = await call({ action: 'summarize_payouts', ...filter });
              const [want] = await db.query<{ count: number; total: number }>(
                `SELECT count(*)::int AS count, COALESCE(sum(amount), 0)::bigint AS total FROM payouts WHERE merchant_id = $1
                 AND ($2::text IS NULL OR status = $2) AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at < $4)`,
                [m.id, status ?? null, 'created_gte' in range ? range.created_gte : null, 'created_lt' in range ? range.created_lt : null],
              );
              expect([filter, res.body.count, res.body.total_amount]).toEqual([filter, want!.count, Number(want!.total)]);
            }
          }

          // list_payouts and list_balance_transactions under the same dates (a range of their identity): every row, in order.
          const all = async (action: string, filter: Record<string, unknown>) => {
            const ids: string[] = [];
            let after: string | undefined;
            for (;;) {
              const page = (await call({ action, limit: 100, ...filter, ...(after ? { starting_after: after } : {}) })).body;
              ids.push(...page.data.map((r: { id: string }) => r.id));
              if (!page.has_more) return ids;
              after = ids.at(-1);
            }
          };
          for (const range of [{ created_gte: from }, { created_lt: to }, { created_gte: from, created_lt: to }]) {
            const args = [m.id, 'created_gte' in range ? range.created_gte : null, 'created_lt' in range ? range.created_lt : null];
            const within = `($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)`;
            const payouts = await db.query<{ id: string }>(
              `SELECT id FROM payouts WHERE merchant_id = $1 AND ${within} ORDER BY seq DESC`,
              args,
            );
            expect(await all('list_payouts', range)).toEqual(payouts.map((r) => r.id));
            const txns = await db.query<{ id: number }>(
              `SELECT id FROM ledger_entries WHERE merchant_id = $1 AND ${within} ORDER BY id DESC`,
              args,
            );
            expect(await all('list_balance_transactions', range)).toEqual(txns.map((r) => `txn_${r.id}`));
          }

          // summarize_balance: each of the last 12 days against the ledger itself.
          const days = (await call({ action: 'summarize_balance', days: 12 })).body.days as {
            day: string;
            money_in: number;
            money_out: number;
            entries: number;
            closing_balance: number;
          }[];
          const entries = await db.query<{ id: number; amount: number; balance_after: number; created_at: Date }>(
            'SELECT id, amount, balance_after, created_at FROM ledger_entries WHERE merchant_id = $1 ORDER BY id',
            [m.id],
          );
          // Days in the merchant's zone (Asia/Jakarta by default, UTC+7, no daylight saving).
          const ZONE_MS = 7 * 3_600_000;
          const localDay = (ms: number) => new Date(ms + ZONE_MS).toISOString().slice(0, 10);
          expect(days.map((d) => d.day)).toEqual(Array.from({ length: 12 }, (_, i) => localDay(Date.now() - (11 - i) * DAY)));
          // The balance carried into the first day is the balance_after of the last entry in time before it
          // (entries backdated by the "past" step make that differ from the newest by id); each day then adds its entries.
          const dayOf = (e: { created_at: Date }) => localDay(new Date(e.created_at).getTime());
          const earlier = entries
            .filter((e) => dayOf(e) < days[0]!.day)
            .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || Number(a.id) - Number(b.id));
          let carried = Number(earlier.at(-1)?.balance_after ?? 0);
          for (const d of days) {
            const own = entries.filter((e) => dayOf(e) === d.day);
            carried += own.reduce((s, e) => s + Number(e.amount), 0);
            expect(d).toEqual({
              day: d.day,
              money_in: own.filter((e) => Number(e.amount) > 0).reduce((s, e) => s + Number(e.amount), 0),
              money_out: own.filter((e) => Number(e.amount) < 0).reduce((s, e) => s - Number(e.amount), 0),
              entries: own.length,
              closing_balance: carried,
            });
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it('folds every row of a key into one merged row, leaving the sums as they were', async () => {
    const { db, url } = api();
    const m = await createMerchant(db, { name: 'Fold', openingBalance: 1_000_000 });
    for (let i = 0; i < 5; i++) expect((await callApi(url, m.secretKey, withdrawal(10_000 + i))).status).toBe(200);
    const sums = () =>
      db.query(
        'SELECT day, status, sum(count) AS n, sum(total) AS t FROM payout_daily WHERE merchant_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
        [m.id],
      );
    const before = await sums();
    while ((await compactDailyFigures(db, 1000)) > 0);
    expect(await sums()).toEqual(before);
    const [rows] = await db.query<{ unmerged: number; merged: number }>(
      `SELECT count(*) FILTER (WHERE NOT merged)::int AS unmerged, count(*) FILTER (WHERE merged)::int AS merged FROM payout_daily WHERE merchant_id = $1`,
      [m.id],
    );
    expect(rows).toEqual({ unmerged: 0, merged: 1 });
  });
});
