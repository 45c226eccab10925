import type { Db, Queryable } from './types';

interface Batches {
  table: string;
  key: string;
  select: string;
  params: unknown[];
  batchSize: number;
}

/**
 * Deletes the rows whose `key` the query `select` picks, at most `batchSize` a
 * statement (its LIMIT is appended as the last parameter), until a statement
 * deletes fewer: a purge of millions of rows never holds one long transaction.
 * Returns how many rows went.
 *
 * `brin`: the BRIN index on the column `select` filters by age. Its page ranges written since the last run are
 * summarised first (reading only those pages; where no autovacuum runs, nothing else summarises them, and an
 * unsummarised range is read whole by every scan of the index), and each batch is planned with sequential scans
 * off, in a transaction of its own: without statistics the planner costs a BRIN scan as no better than reading
 * the table, which a purge with nothing due then did at every run.
 */
export async function deleteInBatches(db: Db, opts: Batches & { brin: string }): Promise<number>;
export async function deleteInBatches(db: Queryable, opts: Batches): Promise<number>;
export async function deleteInBatches(db: Queryable | Db, opts: Batches & { brin?: string }): Promise<number> {
  const sql = `WITH gone AS (
       DELETE FROM ${opts.table} WHERE ${opts.key} IN (${opts.select} LIMIT $${opts.params.length + 1}) RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`;
  const params = [...opts.params, opts.batchSize];
  const brin = opts.brin === undefined ? undefined : (db as Db);
  // Best effort: a role that does not own the index, or a first summary of a huge table cut by the statement
  // limit, leaves the purge as it was before (the unsummarised ranges read whole), never stops it.
  if (brin) await brin.query('SELECT brin_summarize_new_values($1::regclass)', [opts.brin]).catch(() => undefined);
  let total = 0;
  for (;;) {
    const [row] = brin
      ? await brin.transaction(async (tx) => {
          await tx.exec('SET LOCAL enable_seqscan = off');
          return tx.query<{ deleted: number }>(sql, params);
        })
      : await db.query<{ deleted: number }>(sql, params);
    total += row!.deleted;
    if (row!.deleted < opts.batchSize) return total;
  }
}
