/**
 * The balance at any instant and statements for any period, in any time zone (docs/api.md, "Statements"):
 *
 * - A ledger entry's time is taken when it is written, after its statement locked the balance row
 *   (clock_timestamp(), not now(): now() is the transaction's START, and a transaction that started
 *   first may change the balance second). So, per merchant, entry times follow the order the balance
 *   changed in, and "the balance at T" is the balance_after of the last entry at or before T. Entries
 *   written before this migration are brought into that order: an entry older than one before it (by
 *   id) takes that one's time (a shift of a lock wait, milliseconds); the per-day figures of any UTC day
 *   an entry left or entered are rebuilt from the ledger.
 * - ledger_figures: per merchant and kind, and per UTC day, hour and quarter hour: the number of
 *   entries, money in and money out. A period bounded by midnights of any zone (every offset in use is
 *   a whole number of quarter hours: Jakarta's +7, Kolkata's +5:30, Kathmandu's +5:45) is whole days,
 *   hours and quarter hours; only an instant inside a quarter hour is read from the ledger by
 *   (merchant_id, created_at), under 15 minutes at either end. Kept like migration 010's figures: a
 *   statement-level trigger INSERTs one row per key it touched (never updates a shared row), and
 *   compaction folds them into `merged` rows; a reader sums every row of a key.
 * - statement_runs: one row per merchant and month whose statement.ready event was sent, so that several
 *   instances send it once; the events' type list gains statement.ready.
 */
export const sql = /* sql */ `
ALTER TABLE ledger_entries ALTER COLUMN created_at SET DEFAULT clock_timestamp();

CREATE TEMP TABLE ledger_moved ON COMMIT DROP AS
SELECT id, merchant_id, old_at, new_at FROM (
  SELECT id, merchant_id, created_at AS old_at, max(created_at) OVER (PARTITION BY merchant_id ORDER BY id) AS new_at FROM ledger_entries) w
WHERE new_at > old_at;
UPDATE ledger_entries l SET created_at = m.new_at FROM ledger_moved m WHERE l.id = m.id;

CREATE TEMP TABLE ledger_moved_days ON COMMIT DROP AS
SELECT DISTINCT merchant_id, d AS day FROM ledger_moved,
  LATERAL (VALUES ((old_at AT TIME ZONE 'UTC')::date), ((new_at AT TIME ZONE 'UTC')::date)) v(d)
WHERE (old_at AT TIME ZONE 'UTC')::date <> (new_at AT TIME ZONE 'UTC')::date;
DELETE FROM balance_daily b USING ledger_moved_days d WHERE b.merchant_id = d.merchant_id AND b.day = d.day;
INSERT INTO balance_daily (merchant_id, day, money_in, money_out, entries, first_entry_id, closing_entry_id, closing_balance, merged)
SELECT l.merchant_id, d.day,
       COALESCE(sum(l.amount) FILTER (WHERE l.amount > 0), 0), COALESCE(-sum(l.amount) FILTER (WHERE l.amount < 0), 0),
       count(*), min(l.id), max(l.id), (array_agg(l.balance_after ORDER BY l.id DESC))[1], true
FROM ledger_moved_days d JOIN ledger_entries l ON l.merchant_id = d.merchant_id
  AND l.created_at >= d.day::timestamp AT TIME ZONE 'UTC' AND l.created_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC'
GROUP BY 1, 2;

CREATE TABLE ledger_figures (
  merchant_id  text NOT NULL,
  span         integer NOT NULL CHECK (span IN (900, 3600, 86400)),
  start        timestamptz NOT NULL,
  kind         text NOT NULL,
  count        bigint NOT NULL,
  money_in     bigint NOT NULL,
  money_out    bigint NOT NULL,
  merged       boolean NOT NULL DEFAULT false
);
CREATE INDEX ledger_figures_key ON ledger_figures (merchant_id, span, start);
CREATE UNIQUE INDEX ledger_figures_merged ON ledger_figures (merchant_id, span, start, kind) WHERE merged;
CREATE INDEX ledger_figures_unmerged ON ledger_figures (merchant_id) WHERE NOT merged;

CREATE FUNCTION ledger_span_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out)
  SELECT e.merchant_id, s.span, to_timestamp(floor(extract(epoch FROM e.created_at) / s.span) * s.span), e.kind, count(*),
         COALESCE(sum(e.amount) FILTER (WHERE e.amount > 0), 0), COALESCE(-sum(e.amount) FILTER (WHERE e.amount < 0), 0)
  FROM new_entries e CROSS JOIN (VALUES (900), (3600), (86400)) AS s(span) GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_span_figures AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_span_figures();

INSERT INTO ledger_figures (merchant_id, span, start, kind, count, money_in, money_out, merged)
SELECT e.merchant_id, s.span, to_timestamp(floor(extract(epoch FROM e.created_at) / s.span) * s.span), e.kind, count(*),
       COALESCE(sum(e.amount) FILTER (WHERE e.amount > 0), 0), COALESCE(-sum(e.amount) FILTER (WHERE e.amount < 0), 0), true
FROM ledger_entries e CROSS JOIN (VALUES (900), (3600), (86400)) AS s(span) GROUP BY 1, 2, 3, 4;

CREATE TABLE statement_runs (
  merchant_id  text NOT NULL REFERENCES merchants(id),
  month        text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, month)
);

ALTER TABLE events DROP CONSTRAINT IF EXISTS events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN ('payout.created', 'payout.paid', 'payout.failed',
  'checkout_session.completed', 'checkout_session.expired', 'payout.awaiting_approval', 'payout.approved', 'payout.rejected',
  'payout.expired', 'refund.created', 'refund.succeeded', 'refund.failed', 'statement.ready')) NOT VALID;
`;
