import type { Queryable } from '../../db/types';
import { takeUnmergedSql } from '../../db/unmerged-rows';

/**
 * Reads and upkeep of the per-day figures (migration 010): triggers add one row per statement and
 * key; a reader sums every row of a key, so it is exact whether or not the rows were folded yet.
 */

const DAY_MS = 86_400_000;

/** A UTC day as YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * Folds up to `limit` unmerged rows of each figures table into their key's merged row, one
 * statement per table (rows claimed SKIP LOCKED, so instances share the work). Returns the rows folded.
 */
export async function compactDailyFigures(db: Queryable, limit = 5000): Promise<number> {
  const [balance] = await db.query<{ n: number }>(
    `WITH ${takeUnmergedSql('balance_daily', 'merchant_id, day')},
     sums AS (
       SELECT merchant_id, day, sum(money_in) AS money_in, sum(money_out) AS money_out, sum(entries) AS entries, min(first_entry_id) AS first_entry_id,
              max(closing_entry_id) AS closing_entry_id, (array_agg(closing_balance ORDER BY closing_entry_id DESC))[1] AS closing_balance
       FROM gone GROUP BY merchant_id, day),
     up AS (
       INSERT INTO balance_daily AS d (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance, merged)
       SELECT merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance, true FROM sums ORDER BY merchant_id, day
       ON CONFLICT (merchant_id, day) WHERE merged DO UPDATE SET
         money_in = d.money_in + excluded.money_in, money_out = d.money_out + excluded.money_out, entries = d.entries + excluded.entries,
         first_entry_id = LEAST(d.first_entry_id, excluded.first_entry_id),
         closing_balance = CASE WHEN excluded.closing_entry_id > d.closing_entry_id THEN excluded.closing_balance ELSE d.closing_balance END,
         closing_entry_id = GREATEST(d.closing_entry_id, excluded.closing_entry_id)
       RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS n`,
    [limit],
  );
  const [payout] = await db.query<{ n: number }>(
    `WITH ${takeUnmergedSql('payout_daily', 'merchant_id, day')},
     sums AS (
       SELECT merchant_id, day, status, sum(count) AS count, sum(total) AS total, min(first_seq) AS first_seq, max(last_seq) AS last_seq
       FROM gone GROUP BY merchant_id, day, status),
     up AS (
       INSERT INTO payout_daily AS d (merchant_id, day, status, count, total, first_seq, last_seq, merged)
       SELECT merchant_id, day, status, count, total, first_seq, last_seq, true FROM sums ORDER BY merchant_id, day, status
       ON CONFLICT (merchant_id, day, status) WHERE merged DO UPDATE SET count = d.count + excluded.count, total = d.total + excluded.total,
         first_seq = LEAST(d.first_seq, excluded.first_seq), last_seq = GREATEST(d.last_seq, excluded.last_seq)
       RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS n`,
    [limit],
  );
  return balance!.n + payout!.n;
}

export interface PayoutFigureFilter {
  status?: string;
  created_gte?: string;
  created_lt?: string;
}

/**
 * Count and total of the merchant's payouts in [created_gte, created_lt) with `status`: whole UTC
 * days from payout_daily, the parts of a day at either end (a boundary that is not midnight) from
 * the payouts themselves through (merchant_id, created_at): what is read is bounded by the days
 * asked for, not by the history.
 */
export async function payoutFigures(db: Queryable, merchantId: string, f: PayoutFigureFilter): Promise<{ count: number; total: number }> {
  const gte = f.created_gte === undefined ? undefined : Date.parse(f.created_gte);
  const lt = f.created_lt === undefined ? undefined : Date.parse(f.created_lt);
  const ceilDay = (ms: number) => Math.ceil(ms / DAY_MS) * DAY_MS;
  const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
  const fullFrom = gte === undefined ? undefined : ceilDay(gte);
  const fullTo = lt === undefined ? undefined : floorDay(lt);
  let count = 0;
  let total = 0;
  const add = (r: { count: number | string | null; total: number | string | null } | undefined) => {
    count += Number(r?.count ?? 0);
    total += Number(r?.total ?? 0);
  };
  const edge = async (from: number | undefined, to: number | undefined) => {
    const [r] = await db.query<{ count: number; total: number }>(
      `SELECT count(*) AS count, COALESCE(sum(amount), 0) AS total FROM payouts
       WHERE merchant_id = $1 AND ($2::text IS NULL OR status = $2::text)
         AND created_at >= $3::timestamptz AND created_at < $4::timestamptz`,
      [merchantId, f.status ?? null, new Date(from!).toISOString(), new Date(to!).toISOString()],
    );
    add(r);
  };
  if (fullFrom !== undefined && fullTo !== undefined && fullFrom >= fullTo) {
    // Within one day (or an empty range): the rows themselves, at most a day of them.
    if (gte! < lt!) await edge(gte, lt);
    return { count, total };
  }
  if (gte !== undefined && gte < fullFrom!) await edge(gte, fullFrom);
  if (lt !== undefined && fullTo! < lt) await edge(fullTo, lt);
  const [r] = await db.query<{ count: number; total: number }>(
    `SELECT COALESCE(sum(count), 0) AS count, COALESCE(sum(total), 0) AS total FROM payout_daily
     WHERE merchant_id = $1 AND ($2::text IS NULL OR status = $2::text)
       AND ($3::date IS NULL OR day >= $3::date) AND ($4::date IS NULL OR day < $4::date)`,
    [merchantId, f.status ?? null, fullFrom === undefined ? null : utcDay(fullFrom), fullTo === undefined ? null : utcDay(fullTo)],
  );
  add(r);
  return { count, total };
}

// `byTime`: the merchant condition of the list's time index.
const LISTS = {
  ledger: {
    table: 'ledger_entries',
    identity: 'id',
    figures: 'balance_daily',
    first: 'first_entry_id',
    last: 'closing_entry_id',
    byTime: 'merchant_id = $1',
  },
  payouts: { table: 'payouts', identity: 'seq', figures: 'payout_daily', first: 'first_seq', last: 'last_seq', byTime: 'merchant_id = $1' },
} as const;

/**
 * A created_at range of a list as a range of the list's own order (ledger `id`, payout `seq`), so that
 * a page of a date filter is a range scan of the index it is ordered by, however deep the dates lie:
 * every row created in [gte, lt) has an identity in [low, high]. Exact: the bounds come from the
 * first and last identity of each day's figures, and, for a boundary inside a day, from that day's
 * rows (through the list's time index); rows inside the bounds but outside the dates (a
 * transaction that began before midnight and wrote after) are still filtered by created_at.
 * `empty`: nothing was created in the range. (`+ 0`: a bare max(id) would be planned as the newest row
 * of the identity index that matches the dates, a walk through every newer row when the dates are old.)
 */
export async function identityRange(
  db: Queryable,
  list: keyof typeof LISTS,
  merchantId: string,
  gte: string | undefined,
  lt: string | undefined,
): Promise<{ low?: number; high?: number; empty: boolean }> {
  const l = LISTS[list];
  const out: { low?: number; high?: number; empty: boolean } = { empty: false };
  if (lt !== undefined) {
    const day = Math.floor(Date.parse(lt) / DAY_MS) * DAY_MS;
    const [row] = await db.query<{ high: number | null }>(
      `SELECT GREATEST(
         (SELECT max(${l.last}) FROM ${l.figures} WHERE merchant_id = $1 AND day < $2::date),
         (SELECT max(${l.identity} + 0) FROM ${l.table} WHERE ${l.byTime} AND created_at >= $3::timestamptz AND created_at < $4::timestamptz)) AS high`,
      [merchantId, utcDay(day), new Date(day).toISOString(), lt],
    );
    if (row!.high === null) return { empty: true };
    out.high = Number(row!.high);
  }
  if (gte !== undefined) {
    const next = Math.ceil(Date.parse(gte) / DAY_MS) * DAY_MS;
    const [row] = await db.query<{ low: number | null }>(
      `SELECT LEAST(
         (SELECT min(${l.first}) FROM ${l.figures} WHERE merchant_id = $1 AND day >= $2::date),
         (SELECT min(${l.identity} + 0) FROM ${l.table} WHERE ${l.byTime} AND created_at >= $3::timestamptz AND created_at < $4::timestamptz)) AS low`,
      [merchantId, utcDay(next), gte, new Date(next).toISOString()],
    );
    if (row!.low === null) return { empty: true };
    out.low = Number(row!.low);
  }
  return out;
}
