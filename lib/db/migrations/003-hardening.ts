/**
 * Limits the database enforces itself, not only the code:
 * - money columns stay within 2^53 - 1, the largest integer JavaScript reads exactly
 *   (inputs are bounded, but credits could otherwise push a balance past it, after which
 *   its row could no longer be read correctly);
 * - one ledger entry per payout, per reversal of a payout, and per checkout payment;
 * - the checkout expiry sweep finds open sessions past their time by index; the index on
 *   console_sessions.key_hash served no query and goes;
 * - payouts count failed settlement attempts, so that one that cannot be settled backs off
 *   instead of blocking its batch on every tick;
 * - failed authentications are counted per address and clock minute in the database, so that
 *   several instances share one limit instead of allowing N times it.
 */
export const sql = /* sql */ `
ALTER TABLE balances
  ADD CONSTRAINT balances_available_exact CHECK (available <= 9007199254740991),
  ADD CONSTRAINT balances_pending_exact CHECK (pending_payouts <= 9007199254740991),
  ADD CONSTRAINT balances_total_exact CHECK (available + pending_payouts <= 9007199254740991);
ALTER TABLE ledger_entries
  ADD CONSTRAINT ledger_amount_exact CHECK (amount BETWEEN -9007199254740991 AND 9007199254740991),
  ADD CONSTRAINT ledger_balance_after_exact CHECK (balance_after <= 9007199254740991);
ALTER TABLE payouts ADD CONSTRAINT payouts_amount_exact CHECK (amount <= 9007199254740991);
ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_amount_exact CHECK (amount <= 9007199254740991);

CREATE UNIQUE INDEX ledger_entries_one_per_source ON ledger_entries (kind, reference_id)
  WHERE kind IN ('payout', 'payout_reversal', 'checkout_payment');

ALTER TABLE payouts ADD COLUMN settle_attempts integer NOT NULL DEFAULT 0;

CREATE TABLE auth_failures (
  address       text NOT NULL,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL,
  PRIMARY KEY (address, window_start)
);

CREATE INDEX checkout_sessions_open_expiry ON checkout_sessions (expires_at) WHERE status = 'open';
DROP INDEX IF EXISTS console_sessions_key;
`;
