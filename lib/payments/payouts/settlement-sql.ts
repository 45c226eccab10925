// The statements of a settlement batch (settlement.ts runs them): the claim, the payouts with their events,
// and last, just before the commit, the balances with their ledger entries.
import { eventCtes, payoutJsonSql } from '../webhooks/event-sql';
import { paidColumnsSql } from './payout-returns';
import { notOnTestClockSql } from '../pipeline/clock';

/**
 * Claimed through payout_states (no payout index holds `status`): its rows are the locks, so a payout row is only
 * ever locked by the update that settles it (simulate_payout takes the same state row first). `held_until`: the end
 * of an outage of the payout's bank covering now (bank-outages.ts), or null; the banks down now are a few rows,
 * read once for the batch.
 */
export const CLAIM_SQL = `WITH down AS (
       SELECT bank_code, max(ends_at) AS held_until FROM bank_outages WHERE starts_at <= app_now() AND ends_at > app_now() GROUP BY bank_code)
     SELECT p.id, p.merchant_id, p.amount, p.account_number, p.settle_attempts, down.held_until::text AS held_until
     FROM (SELECT seq, due_at FROM payout_states WHERE state = 'pending' AND due_at <= app_now() AND ${notOnTestClockSql('payout_states')}
           ORDER BY due_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED) s
     JOIN payouts p ON p.seq = s.seq LEFT JOIN down ON down.bank_code = p.bank_code ORDER BY s.due_at, s.seq`;

/**
 * Each claimed payout pending -> paid or failed (a conditional update: a payout settled meanwhile is left alone), its
 * event and deliveries. Answers one row per merchant: the amount settled, the amount that failed (back to available),
 * and the failed payouts in payout order, for BALANCES_SQL. No balance row is locked here: the merchant's balance is
 * the row its withdrawals wait for, so settlement takes it only in the short last statement of its transaction.
 */
export const SETTLE_SQL = `
  WITH f AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, code, message)),
  u AS (
    UPDATE payouts p SET status = CASE WHEN f.code IS NULL THEN 'paid' ELSE 'failed' END,
      failure_code = f.code, failure_message = f.message, settled_at = app_now(), ${paidColumnsSql('f.code IS NULL')}
    FROM f WHERE p.id = f.id AND p.status = 'pending'
    RETURNING p.*),
  ${eventCtes({
    from: 'u',
    // As when paid and failed payouts were two statements: a batch's payout.paid events, then its payout.failed ones.
    type: { sql: "CASE WHEN u.status = 'paid' THEN 'payout.paid' ELSE 'payout.failed' END", order: "u.status = 'failed', u.seq" },
    data: payoutJsonSql('u'),
  })}
  SELECT merchant_id, sum(amount) AS settled, COALESCE(sum(amount) FILTER (WHERE status = 'failed'), 0) AS reversed,
         count(*) FILTER (WHERE status = 'paid')::int AS paid, count(*) FILTER (WHERE status = 'failed')::int AS failed,
         COALESCE(array_agg(id ORDER BY seq) FILTER (WHERE status = 'failed'), '{}') AS failed_ids,
         COALESCE(array_agg(amount ORDER BY seq) FILTER (WHERE status = 'failed'), '{}') AS failed_amounts
  FROM u GROUP BY merchant_id ORDER BY merchant_id`;

/**
 * One balance update per merchant (pending down, failures back to available) and a payout_reversal ledger entry per
 * failure, each with the balance as if credited one by one. Balances are locked in merchant order: a fixed order keeps
 * concurrent settlers from deadlocking on them. $1-$3: per merchant; $4-$6: the failed payouts in order.
 */
export const BALANCES_SQL = `
  WITH m AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS m(merchant_id, settled, reversed)),
  locked AS MATERIALIZED (
    SELECT merchant_id FROM balances WHERE merchant_id IN (SELECT merchant_id FROM m) ORDER BY merchant_id FOR UPDATE),
  b AS (
    UPDATE balances b SET pending_payouts = b.pending_payouts - m.settled, available = b.available + m.reversed, updated_at = app_now()
    FROM m JOIN locked USING (merchant_id) WHERE b.merchant_id = m.merchant_id
    RETURNING b.merchant_id, b.available, m.reversed),
  x AS (SELECT * FROM unnest($4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY AS x(merchant_id, id, amount, n)),
  le AS (
    INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
    SELECT x.merchant_id, x.amount, b.available - b.reversed + sum(x.amount) OVER (PARTITION BY x.merchant_id ORDER BY x.n),
           'payout_reversal', x.id
    FROM x JOIN b USING (merchant_id) ORDER BY x.merchant_id, x.n)
  SELECT count(*)::int AS balances FROM b`;
