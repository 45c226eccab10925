import type { Queryable } from '../db/types';
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
