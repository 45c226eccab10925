import { tableVacuum } from '../db/table-vacuum';
import type { Db, Queryable } from '../db/types';
import { compactBatchCounts } from '../payments/payouts/batch-counts';
import { compactDailyFigures } from '../payments/ledger/daily-figures';
import { compactLedgerFigures } from '../payments/ledger/ledger-figures';

const BATCH = 5000;

/**
 * One run of the figures_compaction job: each figures table folded a batch at a time until a batch comes back short
 * (the fold has caught up) or `budgetMs` has passed. One batch per run was a ceiling of 1,000 rows a second: lone
 * withdrawals write a row per statement for each of the four ledger spans, and above that rate the unmerged rows,
 * which every read of their range sums, would grow for as long as the load lasted.
 */
export async function compactAllFigures(db: Queryable, budgetMs: number): Promise<number> {
  const until = Date.now() + budgetMs;
  let folded = 0;
  for (const fold of [compactDailyFigures, compactLedgerFigures, compactBatchCounts]) {
    for (;;) {
      const n = await fold(db, BATCH);
      folded += n;
      if (n < BATCH || Date.now() >= until) break;
    }
  }
  return folded;
}

/** The tables compaction churns: a row per write deleted as it is folded, its key's merged row updated. */
const FIGURES_TABLES = ['balance_daily', 'ledger_figures', 'payout_batch_counts', 'payout_daily'] as const;

/**
 * The figures_compaction job's run: the fold, then a VACUUM of each figures table whose dead rows call for one where
 * no autovacuum daemon does it (lib/db/table-vacuum.ts). Checked at every run, not only after a fold: a fold's
 * deletes reach the statistics a moment after it. Returns the rows folded and the tables vacuumed.
 */
export function figuresUpkeep(db: Db, budgetMs: number) {
  const vacuum = tableVacuum(db, FIGURES_TABLES);
  return async () => ({ folded: await compactAllFigures(db, budgetMs), vacuumed: await vacuum() });
}
