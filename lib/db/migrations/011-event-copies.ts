/**
 * A payout's events keep no copy of the payout (lib/payments/webhooks/event-sql.ts, eventDataSql): the copy
 * was about half of what each payout cost on disk (two events of ~450 bytes of JSON each). Other
 * events (checkout sessions, whose URL depends on the origin at the time) keep theirs. Catalog
 * changes only: existing copies stay until the event retention purges them, and the CHECK is
 * NOT VALID (no scan of a big table; new rows are checked).
 */
export const sql = /* sql */ `
ALTER TABLE events ALTER COLUMN data DROP NOT NULL;
ALTER TABLE events ADD CONSTRAINT events_data_kept CHECK (data IS NOT NULL OR type LIKE 'payout.%') NOT VALID;
`;
