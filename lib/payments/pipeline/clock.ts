import type { Queryable } from '../../db/types';

/**
 * Stamps the rest of the transaction with `at`: app_now() and app_clock_timestamp() answer it (migration 78).
 * The first statement of every transaction of a sandbox with a test clock; no other merchant pays for it.
 */
export const setClock = (tx: Queryable, at: Date) => tx.query("SELECT set_config('payments.clock', $1, true)", [at.toISOString()]);

/**
 * The wall-clock jobs (settlement, returns, approval expiry, refunds, checkout expiry) leave the rows of
 * a sandbox with a test clock alone: its time is its clock's, and advance_test_clock runs what falls due
 * on it (advance.ts). A condition for their claims; `alias` names the claimed table, `column` its merchant's id.
 * It reads the sandboxes' unique index on merchant_id, and only for rows that are due.
 */
export const notOnTestClockSql = (alias: string, column = 'merchant_id') =>
  `NOT EXISTS (SELECT 1 FROM sandboxes clocked WHERE clocked.merchant_id = ${alias}.${column} AND clocked.clock_now IS NOT NULL)`;
