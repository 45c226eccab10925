/**
 * Per-day figures, so that summaries, the dashboard's money in and out and the balance chart read a
 * few rows per day instead of walking the history:
 * - balance_daily: per merchant and UTC day, money in and out of `available`, the number of ledger
 *   entries, and the balance after the day's newest entry (its closing balance);
 * - payout_daily: per merchant, UTC day of creation and status, the number and total of payouts.
 * Both keep the first and last identity (ledger id, payout seq) seen on each day: a date filter on
 * a list becomes a range of the list's own order (lib/payments/ledger/daily-figures.ts, identityRange).
 *
 * Kept exact by statement-level triggers with transition tables: every statement that writes ledger
 * entries or payouts (a lone withdrawal, a group, a batch, settlement, a checkout payment, a top-up)
 * adds one row per merchant-day(-status) it touched, in its own transaction, whatever path it took.
 * Writers only INSERT (never update a shared figures row), so a figures row is never a lock that a
 * withdrawal and a settlement could take in opposite orders; `compactDailyFigures` (a background
 * job) folds those rows into one `merged` row per key. A reader sums every row of a key, merged or
 * not, so the answer is exact before and after a fold.
 *
 * The backfill runs with the triggers in place, in this migration's transaction: writes to the
 * ledger and payouts wait for it (a few seconds per million rows).
 */
export const sql = /* sql */ `
CREATE TABLE balance_daily (
  merchant_id      text NOT NULL,
  day              date NOT NULL,
  money_in         bigint NOT NULL,
  money_out        bigint NOT NULL,
  entries          bigint NOT NULL,
  first_entry_id   bigint NOT NULL,
  closing_entry_id bigint NOT NULL,
  closing_balance  bigint NOT NULL,
  merged           boolean NOT NULL DEFAULT false
);
CREATE INDEX balance_daily_key ON balance_daily (merchant_id, day);
CREATE UNIQUE INDEX balance_daily_merged ON balance_daily (merchant_id, day) WHERE merged;
CREATE INDEX balance_daily_unmerged ON balance_daily (merchant_id, day) WHERE NOT merged;

CREATE TABLE payout_daily (
  merchant_id  text NOT NULL,
  day          date NOT NULL,
  status       text NOT NULL,
  count        bigint NOT NULL,
  total        bigint NOT NULL,
  first_seq    bigint,
  last_seq     bigint,
  merged       boolean NOT NULL DEFAULT false
);
CREATE INDEX payout_daily_key ON payout_daily (merchant_id, day);
CREATE UNIQUE INDEX payout_daily_merged ON payout_daily (merchant_id, day, status) WHERE merged;
CREATE INDEX payout_daily_unmerged ON payout_daily (merchant_id, day) WHERE NOT merged;

CREATE FUNCTION ledger_daily_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_daily (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date,
         COALESCE(sum(amount) FILTER (WHERE amount > 0), 0), COALESCE(-sum(amount) FILTER (WHERE amount < 0), 0),
         count(*), min(id), max(id), (array_agg(balance_after ORDER BY id DESC))[1]
  FROM new_entries GROUP BY 1, 2;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_daily_figures AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_daily_figures();

-- New payouts count under their status; a status change moves one payout from one status to another
-- (the old rows subtract, the new ones add; an update that changes no status nets to nothing).
CREATE FUNCTION payout_daily_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_daily (merchant_id, day, status, count, total, first_seq, last_seq)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*), sum(amount), min(seq), max(seq)
  FROM new_payouts GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE FUNCTION payout_daily_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_daily (merchant_id, day, status, count, total, first_seq, last_seq)
  SELECT merchant_id, day, status, sum(n), sum(amount), min(seq), max(seq) FROM (
    SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date AS day, status, 1 AS n, amount, seq FROM new_payouts
    UNION ALL
    SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, -1, -amount, seq FROM old_payouts) d
  GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(amount) <> 0;
  RETURN NULL;
END $$;
CREATE FUNCTION payout_daily_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_daily (merchant_id, day, status, count, total)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, -count(*), -sum(amount)
  FROM old_payouts GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER payout_daily_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_daily_insert();
CREATE TRIGGER payout_daily_update AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_payouts NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_daily_update();
CREATE TRIGGER payout_daily_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_payouts FOR EACH STATEMENT EXECUTE FUNCTION payout_daily_delete();

INSERT INTO balance_daily (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance, merged)
SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date,
       COALESCE(sum(amount) FILTER (WHERE amount > 0), 0), COALESCE(-sum(amount) FILTER (WHERE amount < 0), 0),
       count(*), min(id), max(id), (array_agg(balance_after ORDER BY id DESC))[1], true
FROM ledger_entries GROUP BY 1, 2;

INSERT INTO payout_daily (merchant_id, day, status, count, total, first_seq, last_seq, merged)
SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*), sum(amount), min(seq), max(seq), true
FROM payouts GROUP BY 1, 2, 3;
`;
