import { whereNoDaemon } from './daemon-upkeep';
import type { Db } from './types';

/**
 * The planner's statistics where no daemon keeps them. PostgreSQL's autovacuum daemon ANALYZEs a table once a
 * tenth of it changed; without it (PGlite never has one, and a server may run with autovacuum off, as this
 * project's CI machine does) a table bulk loaded or grown since has no statistics, or old ones, and the planner
 * guesses. Every read is planned to hold without them (docs/prove.md, "Plans without statistics"), but guesses
 * cost where they touch a rare value (a kind of ledger entry, a date range), so the app keeps them itself, as it
 * vacuums payout_states (lib/payments/payouts/payout-states-vacuum.ts) and the figures tables (./table-vacuum.ts).
 *
 * ANALYZEs each table of the schema whose rows changed since its last ANALYZE (pg_stat_user_tables'
 * n_mod_since_analyze, every insert of a never analyzed table) by at least `minChanged` and a `fraction` of its
 * size: the daemon's own rule, with a larger floor. `SKIP_LOCKED`: a table another instance is analyzing, or whose
 * index is being built CONCURRENTLY, waits for the next run. ANALYZE reads a sample (30,000 rows at the default
 * target), so a run costs a fraction of a second per table, whatever its size. Left to the daemon where it runs.
 * Returns the tables analyzed.
 */
export function tableStatistics(db: Db, opts: { minChanged?: number; fraction?: number } = {}) {
  const minChanged = opts.minChanged ?? 1_000;
  const fraction = opts.fraction ?? 0.1;
  return whereNoDaemon(db, 'ANALYZE', async () =>
    (
      await db.query<{ name: string }>(
        `SELECT s.relname AS name FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
         WHERE s.schemaname = current_schema() AND s.n_mod_since_analyze >= GREATEST($1::bigint, $2::float8 * GREATEST(c.reltuples, 0))
         ORDER BY s.relname`,
        [minChanged, fraction],
      )
    ).map((t) => t.name),
  );
}
