/**
 * Bank references, returned payouts and low-balance alerts.
 *
 * Payouts:
 * - `bank_reference`, written with the change to paid (unique by construction: it carries the payout's
 *   seq, so no index is paid by every settlement, and the paid update stays a HOT update);
 *   `paid_at` is `settled_at` of a paid or returned payout, so it needs no column;
 * - status `returned` (paid -> returned only), with `returned_at`; the reason in failure_code/message;
 * - `return_after`: when the bank returns a paid payout of a returning test account (4000000004). Only
 *   those rows ever set it, so its partial index costs other payouts nothing; it is cleared on return.
 * Ledger: kind `payout_return`, at most one per payout (the unique index is the second guard after
 * the conditional `UPDATE payouts ... WHERE status = 'paid'`).
 *
 * Balances: the merchant's low_balance_threshold (update_account_settings writes it here, its one home) and
 * `balance_low`, generated from the row itself. Every change of `available` goes through
 * an UPDATE of this row, and row updates of one merchant are serialised by its row lock: the row trigger
 * below sees each flip of `balance_low` exactly once, whatever statement made it (a lone withdrawal, a
 * group of them, a batch, settlement, refunds, top-ups, a threshold change), and writes the one event of
 * that flip with its deliveries, in the transaction of the change. Its WHEN clause is evaluated without
 * entering PL/pgSQL, so an update that flips nothing pays next to nothing.
 *
 * CHECKs on the big tables are replaced NOT VALID: catalog changes, no scan; new rows are checked.
 */
export const sql = /* sql */ `
ALTER TABLE payouts
  ADD COLUMN bank_reference text,
  ADD COLUMN returned_at timestamptz,
  ADD COLUMN return_after timestamptz,
  DROP CONSTRAINT payouts_status_check,
  ADD CONSTRAINT payouts_status_check
    CHECK (status IN ('pending', 'paid', 'failed', 'awaiting_approval', 'rejected', 'expired', 'returned')) NOT VALID,
  ADD CONSTRAINT payouts_returned_at CHECK ((status = 'returned') = (returned_at IS NOT NULL)) NOT VALID;
CREATE INDEX payouts_return_due ON payouts (return_after) WHERE return_after IS NOT NULL;

ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('opening_balance', 'adjustment', 'payout', 'payout_reversal', 'checkout_payment', 'topup', 'refund',
                  'refund_reversal', 'payout_return')) NOT VALID;
CREATE UNIQUE INDEX ledger_entries_one_per_return ON ledger_entries (reference_id) WHERE kind = 'payout_return';

-- statement.ready, the statements' event (041-ledger-figures), is listed here too, so that the order these migrations land in does not matter.
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN ('payout.created', 'payout.paid', 'payout.failed',
  'checkout_session.completed', 'checkout_session.expired', 'payout.awaiting_approval', 'payout.approved', 'payout.rejected',
  'payout.expired', 'refund.created', 'refund.succeeded', 'refund.failed', 'payout.returned', 'balance.low', 'balance.recovered',
  'statement.ready')) NOT VALID;

ALTER TABLE balances
  ADD COLUMN low_balance_threshold bigint CHECK (low_balance_threshold >= 0),
  ADD COLUMN balance_low boolean GENERATED ALWAYS AS (low_balance_threshold IS NOT NULL AND available < low_balance_threshold) STORED;

-- The same event and deliveries as lib/payments/webhooks/event-sql.ts (eventCtes) writes for the other types.
-- A threshold removed (null) ends an alert without an event.
CREATE FUNCTION balance_alert_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_id text := new_id('evt');
  event_type text := CASE WHEN NEW.balance_low THEN 'balance.low' ELSE 'balance.recovered' END;
BEGIN
  INSERT INTO events (id, merchant_id, type, object_id, data)
  VALUES (event_id, NEW.merchant_id, event_type, new_id('bal'),
          json_build_object('object', 'balance', 'available', NEW.available, 'low_balance_threshold', NEW.low_balance_threshold,
                            'currency', NEW.currency));
  INSERT INTO webhook_deliveries (id, merchant_id, event_id, endpoint_id)
  SELECT new_id('whd'), NEW.merchant_id, event_id, w.id FROM webhook_endpoints w
  WHERE w.merchant_id = NEW.merchant_id AND NOT w.disabled AND (w.enabled_events = ARRAY['*'] OR event_type = ANY (w.enabled_events))
  ORDER BY w.seq;
  RETURN NULL;
END $$;
CREATE TRIGGER balance_alert_event AFTER UPDATE ON balances FOR EACH ROW
  WHEN (OLD.balance_low IS DISTINCT FROM NEW.balance_low AND NEW.low_balance_threshold IS NOT NULL)
  EXECUTE FUNCTION balance_alert_event();
`;
