import { PAYOUT_STATUSES, type PayoutStatus } from '../../contract';
import type { Queryable } from '../../db/types';
import { takeUnmergedSql } from '../../db/unmerged-rows';

/**
 * Reads and upkeep of a batch's payouts counted by status (migration 013): triggers add one row per
 * statement, batch and status; a reader sums every row of its batches, so it is exact whether or
 * not the rows were folded yet.
 */

export type BatchCounts = Record<PayoutStatus, number>;

/** Each batch's counts by status (every status, zero when none): one index look-up per batch, never its payouts. */
export async function batchCounts(db: Queryable, batchIds: string[]): Promise<Map<string, BatchCounts>> {
  const rows = await db.query<{ batch_id: string; status: PayoutStatus; n: number }>(
    'SELECT batch_id, status, sum(count) AS n FROM payout_batch_counts WHERE batch_id = ANY($1::text[]) GROUP BY 1, 2',
    [batchIds],
  );
  const out = new Map(batchIds.map((id) => [id, Object.fromEntries(PAYOUT_STATUSES.map((s) => [s, 0])) as BatchCounts]));
  for (const r of rows) out.get(r.batch_id)![r.status] = Number(r.n);
  return out;
}

/**
 * Folds up to `limit` unmerged rows into their key's merged row in one statement (rows claimed
 * SKIP LOCKED, so instances share the work; merged rows upserted in key order, so two folds never
 * deadlock). Returns the rows folded.
 */
export async function compactBatchCounts(db: Queryable, limit = 5000): Promise<number> {
  const [r] = await db.query<{ n: number }>(
    `WITH ${takeUnmergedSql('payout_batch_counts', 'batch_id')},
     up AS (
       INSERT INTO payout_batch_counts AS c (batch_id, status, count, merged)
       SELECT batch_id, status, sum(count), true FROM gone GROUP BY batch_id, status ORDER BY batch_id, status
       ON CONFLICT (batch_id, status) WHERE merged DO UPDATE SET count = c.count + excluded.count
       RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS n`,
    [limit],
  );
  return r!.n;
}
