import type { Db, Queryable } from './types';

/**
 * Runs `fn` with bitmap scans ruled out for its statements (SET LOCAL: they end with the transaction): for a read
 * whose right plan is a walk down an index that stops at the page, which the planner, guessing without statistics,
 * trades for gathering every match and sorting it. In a transaction of its own, or in the caller's when `q` is one
 * already (a test clock's read), where the setting then lasts to its end.
 */
export async function withoutBitmapScans<T>(q: Queryable | Db, fn: (q: Queryable) => Promise<T>): Promise<T> {
  const run = async (tx: Queryable) => {
    await tx.exec('SET LOCAL enable_bitmapscan = off');
    return fn(tx);
  };
  return 'transaction' in q ? q.transaction(run) : run(q);
}
