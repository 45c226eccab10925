/**
 * payout_states: one small row per payout that is not `paid` (pending, awaiting approval, failed,
 * and any other status but the common one), so that no index on `payouts` needs `status` and
 * settlement is a HOT update (the new row version stays on its page, no index gets a new entry).
 * `due_at` is when the payout's state ends on its own: settle_after while pending,
 * approval_expires_at while awaiting approval, null otherwise. Settlement and the expiry job claim
 * through (state, due_at); list_payouts' status filters (paid aside) read (merchant_id, state, seq).
 *
 * Kept by statement-level triggers with transition tables, as the per-day figures are (migration
 * 010): every statement that writes payouts (withdrawals, groups, batches, approvals, settlement,
 * whatever comes next) keeps it in its own transaction, whatever path it took. A payout that becomes
 * `paid` leaves it, any other change of a non-paid payout replaces its row; look-ups go by `seq`
 * through an array, so a trigger run costs the rows its statement touched, however long the backlog.
 *
 * payouts gets a fill factor of 45: a settlement batch settles every row of the pages it touches in
 * one transaction, where no old version can be pruned yet, so each row's new version needs its own
 * room on the page, and the settled version is a little longer (its bank reference). Measured: 60
 * left a third of the updates non-HOT, 50 about a tenth once the bank reference was added. New pages
 * only: existing ones are not rewritten, which would lock the table.
 *
 * This migration's transaction only creates (writers of payouts wait for CREATE TRIGGER, a catalog
 * change); migration 051 backfills the existing payouts in short steps (payout_states_backfill), and
 * 052 drops the indexes that held `status`, CONCURRENTLY.
 */
export const sql = /* sql */ `
CREATE TABLE payout_states (
  seq          bigint NOT NULL,
  merchant_id  text NOT NULL,
  state        text NOT NULL,
  due_at       timestamptz
);
-- A queue: every payout's row is deleted when it is paid, so a settled backlog leaves as many dead rows and
-- index entries, which a list of pending payouts would step over until VACUUM. Vacuumed once 10,000 are dead
-- (not a fifth of the table) and without the cost delay: its rows are small and its pages few once vacuumed.
ALTER TABLE payout_states SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_cost_delay = 0);
CREATE INDEX payout_states_merchant ON payout_states (merchant_id, state, seq);
-- The triggers' look-ups by seq. A hash index: it cannot return rows in seq order, so the planner never walks
-- it for a list's newest-first order (filtering by merchant and state on the way) instead of the index above.
-- One row per seq is the triggers' doing (delete, then insert).
CREATE INDEX payout_states_seq ON payout_states USING hash (seq);
CREATE INDEX payout_states_due ON payout_states (state, due_at, seq) WHERE due_at IS NOT NULL;

CREATE FUNCTION payout_state_due(status text, settle_after timestamptz, approval_expires_at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE status WHEN 'pending' THEN settle_after WHEN 'awaiting_approval' THEN approval_expires_at END $$;

CREATE FUNCTION payout_states_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_states (seq, merchant_id, state, due_at)
  SELECT seq, merchant_id, status, payout_state_due(status, settle_after, approval_expires_at)
  FROM new_payouts WHERE status <> 'paid';
  RETURN NULL;
END $$;
CREATE FUNCTION payout_states_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_states WHERE seq = ANY (ARRAY(SELECT seq FROM new_payouts));
  INSERT INTO payout_states (seq, merchant_id, state, due_at)
  SELECT seq, merchant_id, status, payout_state_due(status, settle_after, approval_expires_at)
  FROM new_payouts WHERE status <> 'paid';
  RETURN NULL;
END $$;
CREATE FUNCTION payout_states_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_states WHERE seq = ANY (ARRAY(SELECT seq FROM old_payouts));
  RETURN NULL;
END $$;
CREATE TRIGGER payout_states_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_states_insert();
CREATE TRIGGER payout_states_update AFTER UPDATE ON payouts
  REFERENCING NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_states_update();
CREATE TRIGGER payout_states_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_states_delete();

-- The backfill, run by migration 051 in steps of "step" payouts by seq, each its own short transaction, until it returns
-- null: writers of payouts never wait for the whole of it. Race-free with them: the step first locks the payouts
-- of its range that are not paid (a writer of one has committed, its trigger's row with it, or waits for this
-- step), then, in a new statement with a new snapshot that sees those rows, adds the ones still missing.
CREATE FUNCTION payout_states_backfill(from_seq bigint, step integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  start_seq bigint := COALESCE(from_seq, 0);
  locked bigint[];
BEGIN
  IF start_seq >= (SELECT COALESCE(max(seq), 0) FROM payouts) THEN RETURN NULL; END IF;
  locked := ARRAY(SELECT seq FROM payouts WHERE seq > start_seq AND seq <= start_seq + step AND status <> 'paid' FOR UPDATE);
  INSERT INTO payout_states (seq, merchant_id, state, due_at)
  SELECT p.seq, p.merchant_id, p.status, payout_state_due(p.status, p.settle_after, p.approval_expires_at)
  FROM payouts p WHERE p.seq = ANY (locked) AND NOT EXISTS (SELECT 1 FROM payout_states s WHERE s.seq = p.seq);
  RETURN start_seq + step;
END $$;

ALTER TABLE payouts SET (fillfactor = 45);
`;
