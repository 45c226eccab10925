/**
 * Sandboxes: a merchant of its own (its merchants row, key, balance and everything under them) made by a
 * parent merchant for a test run. This table says whose it is, what it began with (reset_sandbox puts the
 * balance back to it), when it expires, when it was deleted (its key answers 401 from then; the purge job
 * deletes its rows a few seconds later) and, for a sandbox with a test clock, the clock's frozen time.
 * The table is new and empty: its indexes are built in the same transaction.
 */
export const sql = /* sql */ `
CREATE TABLE sandboxes (
  seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id              text PRIMARY KEY,
  parent_id       text NOT NULL REFERENCES merchants(id),
  merchant_id     text NOT NULL UNIQUE REFERENCES merchants(id),
  name            text NOT NULL,
  initial_balance bigint NOT NULL CHECK (initial_balance >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  deleted_at      timestamptz,
  -- The test clock's time (a sandbox made with test_clock: true); null: the sandbox lives on the wall clock.
  clock_now       timestamptz
);
-- A parent's live sandboxes, newest first (list_sandboxes, the cap); the purge's work by when it is due.
CREATE INDEX sandboxes_parent_live ON sandboxes (parent_id, seq DESC) WHERE deleted_at IS NULL;
CREATE INDEX sandboxes_purge_due ON sandboxes ((LEAST(deleted_at, expires_at)));
`;
