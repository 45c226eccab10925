import type { Queryable } from '../../db/types';
import { takeUnmergedSql } from '../../db/unmerged-rows';

/**
 * Reads and upkeep of the ledger figures (migrations 041, 087): the money in and out of `available` and
 * the entry count, per merchant and kind, per UTC day, hour, minute and second. A period [from, to) is
 * read as its whole UTC days, then whole hours, minutes and seconds at its ends, and the rest (under a
 * second at either end: only an instant inside a second) from the ledger by (merchant_id, created_at),
 * so what a statement reads is bounded by its period's shape, not by how busy its edges were. Exact
 * whatever the zone: the figures are sums of entries, and every entry falls in exactly one part.
 */

export interface KindFigure {
  count: number;
  money_in: number;
  money_out: number;
}
export type RangeFigures = Map<string, KindFigure>;

const SPANS_MS = [86_400_000, 3_600_000, 60_000, 1_000];

export interface Segment {
  /** Seconds of each figures row read (86400, 3600, 60, 1), or null: the ledger itself. */
  span: number | null;
  from: number;
  to: number;
}

/** [from, to) as whole days, then whole hours, minutes and seconds, then ledger edges. */
export function segments(from: number, to: number, spans = SPANS_MS): Segment[] {
  if (from >= to) return [];
  const [s, ...rest] = spans;
  if (s === undefined) return [{ span: null, from, to }];
  const a = Math.ceil(from / s) * s;
  const b = Math.floor(to / s) * s;
  if (a >= b) return segments(from, to, rest);
  return [...segments(from, a, rest), { span: s / 1000, from: a, to: b }, ...segments(b, to, rest)];
}

/** The figures of each range, by kind, in one statement. */
export async function rangeFigures(db: Queryable, merchantId: string, ranges: ReadonlyArray<{ from: number; to: number }>) {
  const params: unknown[] = [merchantId];
  const at = (ms: number) => `$${params.push(new Date(ms).toISOString())}::timestamptz`;
  const parts: string[] = [];
  ranges.forEach((r, i) => {
    for (const s of segments(r.from, r.to)) {
      parts.push(
        s.span === null
          ? `SELECT ${i} AS r, kind, 1 AS count, GREATEST(amount, 0) AS money_in, GREATEST(-amount, 0) AS money_out
             FROM ledger_entries WHERE merchant_id = $1 AND created_at >= ${at(s.from)} AND created_at < ${at(s.to)}`
          : `SELECT ${i} AS r, kind, count, money_in, money_out FROM ledger_figures
             WHERE merchant_id = $1 AND span = ${s.span} AND start >= ${at(s.from)} AND start < ${at(s.to)}`,
      );
    }
  });
  const out: RangeFigures[] = ranges.map(() => new Map());
  if (parts.length === 0) return out;
  const rows = await db.query<{ r: number; kind: string; count: string | number; money_in: string | number; money_out: string | number }>(
    `SELECT r, kind, sum(count) AS count, sum(money_in) AS money_in, sum(money_out) AS money_out
     FROM (${parts.join('\n UNION ALL ')}) p GROUP BY r, kind`,
    params,
  );
  for (const row of rows) {
    out[Number(row.r)]!.set(row.kind, { count: Number(row.count), money_in: Number(row.money_in), money_out: Number(row.money_out) });
  }
  return out;
}

/**
 * `available` just before instant `ms`: the balance_after of the merchant's last entry before it, or 0
 * before the first. Entry times follow the order the balance changed in (migration 041), so this is
 * the sum of every entry before that instant; one descent of (merchant_id, created_at, id).
 */
export async function balanceBefore(db: Queryable, merchantId: string, ms: number): Promise<number> {
  const [row] = await db.query<{ balance_after: number }>(
    `SELECT balance_after FROM ledger_entries WHERE merchant_id = $1 AND created_at < $2::timestamptz
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [merchantId, new Date(ms).toISOString()],
  );
  return Number(row?.balance_after ?? 0);
}

/**
 * `available` as of instant `ms`, a time the API shows in milliseconds: every entry up to the end of
 * that millisecond (so `as_of` set to an entry's `created_at` includes that entry).
 */
export const balanceAsOf = (db: Queryable, merchantId: string, ms: number) => balanceBefore(db, merchantId, ms + 1);

/** Folds up to `limit` unmerged figures rows into their key's merged row (SKIP LOCKED: instances share the work). */
export async function compactLedgerFigures(db: Queryable, limit = 5000): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `WITH ${takeUnmergedSql('ledger_figures', 'merchant_id')},
     sums AS (SELECT merchant_id, span, start, kind, sum(count) AS count, sum(money_in) AS money_in, sum(money_out) AS money_out
              FROM gone GROUP BY 1, 2, 3, 4),
     up AS (
       INSERT INTO ledger_figures AS f (merchant_id, span, start, kind, count, money_in, money_out, merged)
       SELECT merchant_id, span, start, kind, count, money_in, money_out, true FROM sums ORDER BY 1, 2, 3, 4
       ON CONFLICT (merchant_id, span, start, kind) WHERE merged DO UPDATE SET
         count = f.count + excluded.count, money_in = f.money_in + excluded.money_in, money_out = f.money_out + excluded.money_out
       RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS n`,
    [limit],
  );
  return row!.n;
}
