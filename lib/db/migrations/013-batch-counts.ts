/**
 * A batch's payouts counted by status, so that get_payout_batch and list_payout_batches read a few
 * rows per batch instead of its up to 1,000 payouts. Kept as the per-day figures are (migration 010):
 * statement-level triggers with transition tables add one row per batch and status a statement
 * touched, in its own transaction, whatever the path (a batch, settlement, approval, rejection,
 * expiry). Writers only INSERT, so two settlements never wait on one hot row; the background
 * `figures_compaction` job folds rows into one `merged` row per key (lib/payments/payouts/batch-counts.ts),
 * and a reader sums every row of its batches, exact before and after a fold.
 *
 * The backfill counts the payouts of existing batches, with the triggers in place, in this
 * migration's transaction.
 */
export const sql = /* sql */ `
CREATE TABLE payout_batch_counts (
  batch_id  text NOT NULL,
  status    text NOT NULL,
  count     integer NOT NULL,
  merged    boolean NOT NULL DEFAULT false
);
CREATE INDEX payout_batch_counts_key ON payout_batch_counts (batch_id);
CREATE UNIQUE INDEX payout_batch_counts_merged ON payout_batch_counts (batch_id, status) WHERE merged;
CREATE INDEX payout_batch_counts_unmerged ON payout_batch_counts (batch_id) WHERE NOT merged;

-- As payout_daily: new payouts count under their status, a status change moves one from the old
-- status to the new (an update that changes no status nets to nothing and adds no row).
CREATE FUNCTION payout_batch_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_batch_counts (batch_id, status, count)
  SELECT batch_id, status, count(*) FROM new_payouts WHERE batch_id IS NOT NULL GROUP BY 1, 2;
  RETURN NULL;
END $$;
CREATE FUNCTION payout_batch_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_batch_counts (batch_id, status, count)
  SELECT batch_id, status, sum(n) FROM (
    SELECT batch_id, status, 1 AS n FROM new_payouts WHERE batch_id IS NOT NULL
    UNION ALL
    SELECT batch_id, status, -1 FROM old_payouts WHERE batch_id IS NOT NULL) d
  GROUP BY 1, 2 HAVING sum(n) <> 0;
  RETURN NULL;
END $$;
CREATE FUNCTION payout_batch_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_batch_counts (batch_id, status, count)
  SELECT batch_id, status, -count(*) FROM old_payouts WHERE batch_id IS NOT NULL GROUP BY 1, 2;
  RETURN NULL;
END $$;
CREATE TRIGGER payout_batch_counts_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_batch_counts_insert();
CREATE TRIGGER payout_batch_counts_update AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_payouts NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_batch_counts_update();
CREATE TRIGGER payout_batch_counts_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_batch_counts_delete();

INSERT INTO payout_batch_counts (batch_id, status, count, merged)
SELECT batch_id, status, count(*), true FROM payouts WHERE batch_id IS NOT NULL GROUP BY 1, 2;
`;
