/**
 * Payout approvals and account holders: the merchant's approval
 * policy (read with the key, so a withdrawal is decided without another round
 * trip), the balance's third figure, the payout's new statuses and who acted,
 * and the bank account look-ups kept for 24 hours (the account number only as
 * a keyed digest and its last four digits).
 */
export const sql = /* sql */ `
ALTER TABLE merchants
  ADD COLUMN payout_approval_required boolean NOT NULL DEFAULT false,
  ADD COLUMN payout_approval_above_amount bigint NOT NULL DEFAULT 0
    CHECK (payout_approval_above_amount BETWEEN 0 AND 9007199254740991),
  ADD COLUMN payout_approval_for_keys text NOT NULL DEFAULT 'restricted'
    CHECK (payout_approval_for_keys IN ('restricted', 'all')),
  ADD COLUMN payout_approval_updated_at timestamptz;

ALTER TABLE balances
  ADD COLUMN awaiting_approval bigint NOT NULL DEFAULT 0 CHECK (awaiting_approval BETWEEN 0 AND 9007199254740991),
  DROP CONSTRAINT balances_total_exact,
  ADD CONSTRAINT balances_total_exact CHECK (available + pending_payouts + awaiting_approval <= 9007199254740991);

ALTER TABLE payouts
  DROP CONSTRAINT payouts_status_check,
  ADD CONSTRAINT payouts_status_check
    CHECK (status IN ('pending', 'paid', 'failed', 'awaiting_approval', 'rejected', 'expired')),
  ADD COLUMN account_holder_name text,
  ADD COLUMN approval_expires_at timestamptz,
  ADD COLUMN approved_by json,
  ADD COLUMN approved_at timestamptz,
  ADD COLUMN rejected_by json,
  ADD COLUMN rejected_at timestamptz,
  ADD COLUMN rejection_reason text CHECK (length(rejection_reason) <= 500),
  ADD CONSTRAINT payouts_waits_until CHECK (status <> 'awaiting_approval' OR approval_expires_at IS NOT NULL);
CREATE INDEX payouts_approval_due ON payouts (approval_expires_at) WHERE status = 'awaiting_approval';
CREATE INDEX payouts_awaiting ON payouts (merchant_id, seq DESC) WHERE status = 'awaiting_approval';

ALTER TABLE events
  DROP CONSTRAINT events_type_check,
  ADD CONSTRAINT events_type_check CHECK (type IN ('payout.created', 'payout.paid', 'payout.failed',
    'checkout_session.completed', 'checkout_session.expired',
    'payout.awaiting_approval', 'payout.approved', 'payout.rejected', 'payout.expired'));

CREATE TABLE bank_account_validations (
  id                   text PRIMARY KEY,
  merchant_id          text NOT NULL REFERENCES merchants(id),
  bank_code            text NOT NULL,
  account_digest       text NOT NULL,
  account_last4        text NOT NULL CHECK (length(account_last4) = 4),
  status               text NOT NULL CHECK (status IN ('valid', 'invalid')),
  account_holder_name  text,
  failure_code         text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  expires_at           timestamptz NOT NULL,
  UNIQUE (merchant_id, bank_code, account_digest)
);
CREATE INDEX bank_account_validations_expiry ON bank_account_validations (expires_at);
`;
