/**
 * Ledger figures per minute and per second in place of the quarter hour (migration 041): a statement
 * between two instants reads whole days, hours, minutes and seconds, and only the part of a second at
 * either end from the ledger. With quarter hours, that part was up to 15 minutes of entries: a busy
 * merchant's get_statement to "now" summed every entry of the last quarter hour (1.7 s at 2,000,000
 * payouts written in it). A zone's midnight is still whole hours and minutes (+5:45 is 45 minute rows),
 * and the trigger writes four rows per statement and kind where it wrote three.
 *
 * This transaction is short: it waits for the ledger's writers in flight (SHARE: no entry is being
 * written while it runs), notes the last entry so far, and switches the trigger. Every entry up to that
 * one was counted by the old trigger, every later one by the new; migration 088 adds the minutes and
 * seconds of the earlier ones in steps (as unmerged rows, which compaction folds), its progress kept in
 * ledger_fine_backfill so that an interrupted run goes on where it stopped, then deletes the quarter hours.
 * (A full backfill in this transaction held the ledger's writers 8 s at 1,400,000 entries.)
 */
export const sql = /* sql */ `
LOCK TABLE ledger_entries IN SHARE MODE;
CREATE TABLE ledger_fine_backfill (upto bigint NOT NULL, done bigint NOT NULL);
INSERT INTO ledger_fine_backfill SELECT COALESCE(max(id), 0), 0 FROM ledger_entries;

ALTER TABLE ledger_figures DROP CONSTRAINT IF EXISTS ledger_figures_span_check;
-- 900: the quarter hours, until migration 088's last step deletes them.
ALTER TABLE ledger_figures ADD CONSTRAINT ledger_figures_span_check CHECK (span IN (1, 60, 900, 3600, 86400));

CREATE OR REPLACE FUNCTION ledger_span_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out)
  SELECT e.merchant_id, s.span, to_timestamp(floor(extract(epoch FROM e.created_at) / s.span) * s.span), e.kind, count(*),
         COALESCE(sum(e.amount) FILTER (WHERE e.amount > 0), 0), COALESCE(-sum(e.amount) FILTER (WHERE e.amount < 0), 0)
  FROM new_entries e CROSS JOIN (VALUES (1), (60), (3600), (86400)) AS s(span) GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;

-- One step of migration 088: the next \`step\` entries up to \`upto\` by id, and the progress, in one transaction;
-- then the quarter hours; null when done. (\`previous\`, what the last step returned, is not needed: the progress is
-- in the table, so a migration started again goes on where the last one stopped.)
CREATE FUNCTION ledger_fine_figures_backfill(previous boolean, step integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  b ledger_fine_backfill;
BEGIN
  SELECT * INTO b FROM ledger_fine_backfill FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF b.done < b.upto THEN
    INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out)
    SELECT e.merchant_id, s.span, to_timestamp(floor(extract(epoch FROM e.created_at) / s.span) * s.span), e.kind, count(*),
           COALESCE(sum(e.amount) FILTER (WHERE e.amount > 0), 0), COALESCE(-sum(e.amount) FILTER (WHERE e.amount < 0), 0)
    FROM ledger_entries e CROSS JOIN (VALUES (1), (60)) AS s(span)
    WHERE e.id > b.done AND e.id <= LEAST(b.done + step, b.upto) GROUP BY 1, 2, 3, 4;
    UPDATE ledger_fine_backfill SET done = LEAST(b.done + step, b.upto);
    RETURN true;
  END IF;
  DELETE FROM ledger_figures WHERE span = 900;
  DROP TABLE ledger_fine_backfill;
  RETURN NULL;
END $$;
`;

/** Migration 088: 20,000 entries a step, each a short transaction of its own. */
export const backfill = { repeat: 'SELECT ledger_fine_figures_backfill($1::boolean, 20000) AS next' };
