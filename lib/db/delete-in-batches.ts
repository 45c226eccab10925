import type { Queryable } from './types';

/**
 * Deletes the rows whose `key` the query `select` picks, at most `batchSize` a
 * statement (its LIMIT is appended as the last parameter), until a statement
 * deletes fewer: a purge of millions of rows never holds one long transaction.
 * Returns how many rows went.
 */
export async function deleteInBatches(
  db: Queryable,
  opts: { table: string; key: string; select: string; params: unknown[]; batchSize: number },
): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await db.query<{ deleted: number }>(
      `WITH gone AS (
         DELETE FROM ${opts.table} WHERE ${opts.key} IN (${opts.select} LIMIT $${opts.params.length + 1}) RETURNING 1)
       SELECT count(*)::int AS deleted FROM gone`,
      [...opts.params, opts.batchSize],
    );
    total += row!.deleted;
    if (row!.deleted < opts.batchSize) return total;
  }
}
