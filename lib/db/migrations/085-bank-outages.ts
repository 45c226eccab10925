/**
 * Banks the operator has marked unavailable, each for a window: from `starts_at` until `ends_at` (the expected
 * end; moved to now when the bank is back early). While a window covers now, settlement holds the due payouts
 * to that bank instead of sending them: they stay `pending`, their time to settle moved to the window's end (a
 * bank that is down refused nothing, so nothing is failed; docs/operations.md).
 * A handful of rows: settlement reads the ones covering now once per batch.
 */
export const sql = /* sql */ `
CREATE TABLE bank_outages (
  id          text PRIMARY KEY DEFAULT new_id('bout'),
  bank_code   text NOT NULL,
  starts_at   timestamptz NOT NULL DEFAULT now(),
  ends_at     timestamptz NOT NULL,
  reason      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at > starts_at)
);
CREATE INDEX bank_outages_ends ON bank_outages (ends_at);
`;
