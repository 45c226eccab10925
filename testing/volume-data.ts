import type { Queryable } from '@/lib/db/types';

/**
 * The payouts' statuses, as SQL of g (the payout's number, 1 to n = $2, newest last): `history` a settled
 * history with a few pending (90% paid, 7% failed, 3% pending); `pending` every payout pending (settlement a day
 * away); `settled` every payout settled (93% paid, 7% failed); `half` the newest half pending, the older half
 * settled with a tenth of all payouts failed.
 */
export const PAYOUT_MIXES = {
  history: `CASE WHEN g % 100 < 90 THEN 'paid' WHEN g % 100 < 97 THEN 'failed' ELSE 'pending' END`,
  pending: `'pending'`,
  settled: `CASE WHEN g % 100 < 93 THEN 'paid' ELSE 'failed' END`,
  half: `CASE WHEN g > $2 / 2 THEN 'pending' WHEN g % 5 = 0 THEN 'failed' ELSE 'paid' END`,
} as const;
export type PayoutMix = keyof typeof PAYOUT_MIXES;

/**
 * A merchant's long history written straight into the tables, in a few set-based statements (the
 * volume bench builds its history through the API; this is for plans, where only the shape and
 * the size of the data matter): `n` payouts over the last 60 days (in the statuses of `mix`, `history` by
 * default) in batches of 10, their ledger entries and reversals, a checkout payment every 100, events, a request
 * log row per 10 payouts, and deliveries to one endpoint. Every statement goes through the
 * triggers, so the per-day figures stay exact. `analyze: false` leaves the tables without statistics, as
 * a server whose autovacuum is off has them right after a bulk load.
 */
export async function writeHistory(
  db: Queryable,
  opts: { merchantId: string; keyId: string; endpointId?: string; n: number; tag: string; mix?: PayoutMix; analyze?: boolean },
) {
  const { merchantId, keyId, endpointId, n, tag } = opts;
  const status = `(${PAYOUT_MIXES[opts.mix ?? 'history']})`;
  // The history's own pending payouts were due long ago (settlement tests settle them); a backlog's wait a day.
  const settleAfter =
    opts.mix === undefined || opts.mix === 'history' ? `now() - ($2 - g) * make_interval(secs => $4)` : `now() + interval '1 day'`;
  const span = (60 * 86_400) / n; // seconds between two payouts
  // Payout batches of 10 payouts (g - 9 to g, the batch named after g): the payouts hold their batch's id.
  await db.query(
    `INSERT INTO payout_batches (id, merchant_id, currency, total_amount, payout_count, created_at)
     SELECT 'pb_' || $3 || g, $1, 'IDR', (SELECT sum(10000 + k % 1000) FROM generate_series(g - 9, g) AS k), 10, now() - ($2 - g) * make_interval(secs => $4) FROM generate_series(10, $2, 10) AS g`,
    [merchantId, n, tag, span],
  );
  await db.query(
    `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, failure_code, settle_after, created_at, settled_at, batch_id)
     SELECT 'po_' || $3 || g, $1, 10000 + g % 1000, 'IDR', 'BCA', lpad(((g::bigint * 7919) % 10000000000)::text, 10, '0'),
            ${status}, CASE WHEN ${status} = 'failed' THEN 'rejected_by_bank' END,
            ${settleAfter}, now() - ($2 - g) * make_interval(secs => $4),
            CASE WHEN ${status} <> 'pending' THEN now() - ($2 - g) * make_interval(secs => $4) END,
            CASE WHEN (g + 9) / 10 * 10 <= $2 THEN 'pb_' || $3 || ((g + 9) / 10 * 10) END
     FROM generate_series(1, $2) AS g`,
    [merchantId, n, tag, span],
  );
  await db.query(
    `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at)
     SELECT $1, amount, balance_after, kind, ref, at FROM (
       SELECT -(10000 + g % 1000) AS amount, 1000000000000 AS balance_after, 'payout' AS kind, 'po_' || $3 || g AS ref,
              now() - ($2 - g) * make_interval(secs => $4) AS at, g * 3 AS o FROM generate_series(1, $2) AS g
       UNION ALL
       SELECT 10000 + g % 1000, 1000000000000, 'payout_reversal', 'po_' || $3 || g, now() - ($2 - g) * make_interval(secs => $4), g * 3 + 1
       FROM generate_series(1, $2) AS g WHERE ${status} = 'failed'
       UNION ALL
       SELECT 50000, 1000000000000, 'checkout_payment', 'cs_' || $3 || g, now() - ($2 - g) * make_interval(secs => $4), g * 3 + 2
       FROM generate_series(1, $2) AS g WHERE g % 100 = 0) e
     ORDER BY o`,
    [merchantId, n, tag, span],
  );
  await db.query(
    `INSERT INTO events (id, merchant_id, type, object_id, data, created_at)
     SELECT 'evt_' || $3 || g || t, $1, CASE t WHEN 0 THEN 'payout.created' WHEN 1 THEN
              CASE WHEN ${status} = 'failed' THEN 'payout.failed' ELSE 'payout.paid' END END,
            'po_' || $3 || g, '{}'::json, now() - ($2 - g) * make_interval(secs => $4)
     FROM generate_series(1, $2) AS g, generate_series(0, 1) AS t WHERE t = 0 OR ${status} <> 'pending'`,
    [merchantId, n, tag, span],
  );
  await db.query(
    `INSERT INTO request_log (id, merchant_id, created_at, action, status, error_code, duration_ms, key_id, idempotency_key, replayed, object_id, origin)
     SELECT 'req_' || $3 || g, $1, now() - ($2 - g * 10) * make_interval(secs => $4),
            CASE WHEN g % 50 = 0 THEN 'list_payouts' ELSE 'create_payout_batch' END, CASE WHEN g % 200 = 0 THEN 422 ELSE 200 END,
            CASE WHEN g % 200 = 0 THEN 'insufficient_funds' END, 5, $5, 'idem-' || $3 || g, false, 'po_' || $3 || (g * 10),
            -- Mostly the console's own reads, as a merchant's log is: the log without them is a search, not a page of the newest.
            CASE WHEN g % 250 = 0 THEN 'api' ELSE 'console' END
     FROM generate_series(1, $2 / 10) AS g`,
    [merchantId, n, tag, span, keyId],
  );
  if (endpointId) {
    await db.query(
      `INSERT INTO webhook_deliveries (id, merchant_id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
       SELECT 'whd_' || $3 || g, $1, 'evt_' || $3 || g || '0', $5, CASE WHEN g % 100 = 0 THEN 'failed' ELSE 'succeeded' END, 1, NULL,
              now() - ($2 - g) * make_interval(secs => $4)
       FROM generate_series(1, $2, 10) AS g`,
      [merchantId, n, tag, span, endpointId],
    );
  }
  // Checkout sessions, one per 10 payouts.
  await db.query(
    `INSERT INTO checkout_sessions (id, merchant_id, amount, currency, status, expires_at, created_at, completed_at)
     SELECT 'cs_' || $3 || g, $1, 50000, 'IDR', 'complete', now(), now() - ($2 - g) * make_interval(secs => $4), now() - ($2 - g) * make_interval(secs => $4)
     FROM generate_series(10, $2, 10) AS g`,
    [merchantId, n, tag, span],
  );
  if (opts.analyze !== false) await analyzeSchema(db);
}

/**
 * Per-day figures of `merchants` other merchants over `days` days, as many merchants' history would
 * leave them (merged rows): so that the figures tables are big enough for a scan of them to show.
 */
export async function writeOthersFigures(db: Queryable, merchants: number, days: number, analyze = true) {
  await db.query(
    `INSERT INTO balance_daily (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance, merged)
     SELECT 'acct_fig' || m, current_date - d, 1000, 500, 10, 1, 2, 500, true FROM generate_series(1, $1) m, generate_series(1, $2) d`,
    [merchants, days],
  );
  await db.query(
    `INSERT INTO payout_daily (merchant_id, day, status, count, total, first_seq, last_seq, merged)
     SELECT 'acct_fig' || m, current_date - d, s, 10, 100000, 1, 2, true
     FROM generate_series(1, $1) m, generate_series(1, $2) d, unnest(ARRAY['pending', 'paid', 'failed']) s`,
    [merchants, days],
  );
  await db.query(
    `INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out, merged)
     SELECT 'acct_fig' || m, 86400, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - d * interval '1 day', 'payout', 10, 0, 500, true
     FROM generate_series(1, $1) m, generate_series(1, $2) d`,
    [merchants, days],
  );
  if (analyze) await analyzeSchema(db);
}

/**
 * ANALYZE of this schema's tables only. A bare ANALYZE takes every table of the database in turn, other
 * test files' schemas included, and deadlocks with a CREATE INDEX CONCURRENTLY running there (the build
 * holds its table's lock while it waits for older snapshots, the ANALYZE's among them).
 */
export async function analyzeSchema(db: Queryable) {
  const tables = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`);
  if (tables.length > 0) await db.exec(`ANALYZE ${tables.map((t) => `"${t.name}"`).join(', ')}`);
}
