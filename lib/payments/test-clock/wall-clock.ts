/**
 * The wall-clock jobs (settlement, returns, approval expiry, refunds, checkout expiry) leave the rows of
 * a sandbox with a test clock alone: its time is its clock's, and advance_test_clock runs what falls due
 * on it (advance.ts). A condition for their claims; `alias` names the claimed table (with `merchant_id`).
 * It reads the sandboxes' unique index on merchant_id, and only for rows that are due.
 */
export const notOnTestClockSql = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM sandboxes clocked WHERE clocked.merchant_id = ${alias}.merchant_id AND clocked.clock_now IS NOT NULL)`;
