import type { Queryable } from '../../db/types';

/**
 * Stamps the rest of the transaction with `at`: app_now() and app_clock_timestamp() answer it (migration 78).
 * The first statement of every transaction of a sandbox with a test clock; no other merchant pays for it.
 */
export const setClock = (tx: Queryable, at: Date) => tx.query("SELECT set_config('payments.clock', $1, true)", [at.toISOString()]);
