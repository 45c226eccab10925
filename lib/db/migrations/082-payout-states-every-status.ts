/**
 * payout_states holds every payout, `paid` ones too (migration 050 left them out). A list of paid payouts read
 * the payouts newest first, skipping every newer payout of another status: cheap while the payouts not paid were
 * seconds of intake on top, a walk through the whole backlog when settlement is a day away and millions wait.
 * With every status in (merchant_id, state, seq), list_payouts with any status reads that index alone, whatever
 * the mix. The triggers keep one row per payout (a change deletes and inserts it, as before); migration 083
 * backfills the paid payouts written before this one, in short steps.
 */
export const sql = /* sql */ `
CREATE OR REPLACE FUNCTION payout_states_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_states (seq, merchant_id, state, due_at)
  SELECT seq, merchant_id, status, payout_state_due(status, settle_after, approval_expires_at) FROM new_payouts;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION payout_states_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_states WHERE seq = ANY (ARRAY(SELECT seq FROM new_payouts));
  INSERT INTO payout_states (seq, merchant_id, state, due_at)
  SELECT seq, merchant_id, status, payout_state_due(status, settle_after, approval_expires_at) FROM new_payouts;
  RETURN NULL;
END $$;

-- Migration 083's step, as 050's: lock the range's payouts (a writer of one has committed, its trigger's row with
-- it, or waits for this step), then, in a new statement that sees those rows, add the ones still missing.
CREATE FUNCTION payout_states_backfill_all(from_seq bigint, step integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  start_seq bigint := COALESCE(from_seq, 0);
  locked bigint[];
BEGIN
  IF start_seq >= (SELECT COALESCE(max(seq), 0) FROM payouts) THEN RETURN NULL; END IF;
  locked := ARRAY(SELECT seq FROM payouts WHERE seq > start_seq AND seq <= start_seq + step AND status = 'paid' FOR UPDATE);
  INSERT INTO payout_states (seq, merchant_id, state, due_at)
  SELECT p.seq, p.merchant_id, p.status, payout_state_due(p.status, p.settle_after, p.approval_expires_at)
  FROM payouts p WHERE p.seq = ANY (locked) AND NOT EXISTS (SELECT 1 FROM payout_states s WHERE s.seq = p.seq);
  RETURN start_seq + step;
END $$;
`;
