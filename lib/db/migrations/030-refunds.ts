/**
 * Refunds of paid checkout sessions.
 * - checkout_sessions.amount_refunded: the sum of its refunds that did not fail; a
 *   refund raises it with a conditional UPDATE (amount_refunded + n <= amount), so
 *   no concurrency refunds more than was paid. Status `refunded` once it equals amount.
 * - balances.pending_refunds: refunds out of available and not yet settled, so that
 *   available + pending_payouts + pending_refunds is everything in minus everything out.
 * - ledger entries `refund` (the debit) and `refund_reversal` (a failed refund's money back),
 *   one of each per refund at most.
 * - refund.* events.
 */
export const sql = /* sql */ `
ALTER TABLE checkout_sessions DROP CONSTRAINT IF EXISTS checkout_sessions_status_check;
ALTER TABLE checkout_sessions
  ADD CONSTRAINT checkout_sessions_status_check CHECK (status IN ('open', 'complete', 'expired', 'refunded')),
  ADD COLUMN amount_refunded bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT checkout_sessions_refund_bound CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  ADD CONSTRAINT checkout_sessions_refunded_in_full CHECK ((status = 'refunded') = (amount_refunded = amount));

ALTER TABLE balances
  ADD COLUMN pending_refunds bigint NOT NULL DEFAULT 0 CHECK (pending_refunds >= 0 AND pending_refunds <= 9007199254740991),
  DROP CONSTRAINT IF EXISTS balances_total_exact,
  ADD CONSTRAINT balances_total_exact CHECK (available + pending_payouts + awaiting_approval + pending_refunds <= 9007199254740991);

ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('opening_balance', 'adjustment', 'payout', 'payout_reversal', 'checkout_payment', 'topup', 'refund', 'refund_reversal'));
CREATE UNIQUE INDEX ledger_entries_one_per_refund ON ledger_entries (kind, reference_id)
  WHERE kind IN ('refund', 'refund_reversal');

CREATE TABLE refunds (
  seq                  bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id                   text PRIMARY KEY,
  merchant_id          text NOT NULL REFERENCES merchants(id),
  checkout_session_id  text NOT NULL REFERENCES checkout_sessions(id),
  amount               bigint NOT NULL CHECK (amount > 0 AND amount <= 9007199254740991),
  currency             text NOT NULL,
  status               text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  reason               text CHECK (length(reason) BETWEEN 1 AND 500),
  failure_code         text,
  failure_message      text,
  fails                boolean NOT NULL DEFAULT false,
  settle_after         timestamptz NOT NULL,
  settle_attempts      integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL DEFAULT now(),
  settled_at           timestamptz,
  created_by           json,
  CHECK ((status = 'pending') = (settled_at IS NULL))
);
CREATE INDEX refunds_merchant ON refunds (merchant_id, seq DESC);
CREATE INDEX refunds_merchant_status ON refunds (merchant_id, status, seq DESC);
CREATE INDEX refunds_session ON refunds (checkout_session_id, seq DESC);
CREATE INDEX refunds_due ON refunds (settle_after) WHERE status = 'pending';

ALTER TABLE events DROP CONSTRAINT IF EXISTS events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN ('payout.created', 'payout.paid', 'payout.failed',
  'checkout_session.completed', 'checkout_session.expired', 'payout.awaiting_approval', 'payout.approved', 'payout.rejected',
  'payout.expired', 'refund.created', 'refund.succeeded', 'refund.failed'));
`;
