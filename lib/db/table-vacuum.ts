import { whereNoDaemon } from './daemon-upkeep';
import type { Db } from './types';

/**
 * VACUUM of tables that churn, where no daemon does it. The figures tables (ledger_figures, balance_daily,
 * payout_daily, payout_batch_counts) take a row per write, which figures_compaction deletes as it folds it into
 * its key's merged row, and that row is updated each time: a few hundred live rows for a busy day, tens of
 * thousands dead ones. Every read of a period steps over its dead index entries and heap tuples until a VACUUM
 * removes them, so without a daemon (PGlite, or a server with autovacuum off) a 30-day summary grew with the
 * history written since the server started.
 *
 * The daemon's own rule, with a larger floor: a table is vacuumed once its dead rows (pg_stat_user_tables'
 * n_dead_tup, which a backend reports a second or so after its writes, ten under load) reach `minDead` and a
 * `fraction` of its live rows. Returns the tables vacuumed.
 */
export function tableVacuum(db: Db, tables: readonly string[], opts: { minDead?: number; fraction?: number } = {}) {
  const minDead = opts.minDead ?? 1_000;
  const fraction = opts.fraction ?? 0.2;
  return whereNoDaemon(db, 'VACUUM', async () =>
    (
      await db.query<{ name: string }>(
        `SELECT relname AS name FROM pg_stat_user_tables
         WHERE schemaname = current_schema() AND relname = ANY($1::text[])
           AND n_dead_tup >= GREATEST($2::bigint, $3::float8 * n_live_tup)
         ORDER BY relname`,
        [tables, minDead, fraction],
      )
    ).map((t) => t.name),
  );
}
