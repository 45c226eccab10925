import { prepared } from '../../db/prepared';
import { PAYOUT_COLUMNS } from './payout-object';
import { startEventCtes, type WithdrawalRow } from './withdraw-statement';

/**
 * The set-based statements of a group of withdrawals (withdraw-group.ts): each
 * takes arrays, one element per request, so that a group of any size costs the
 * same few round trips and statements as one withdrawal.
 */

/**
 * Claims the group's idempotency keys and reads its merchants' balances, in one
 * statement. The claim is CLAIM_SQL's (idempotency.ts) for many, sorted by
 * (merchant, key) so that two groups claiming the same keys lock them in the same
 * order; a key it does not return is in use (a replay). The balances are read,
 * not locked (the write locks them: the hot row is held from the write to COMMIT
 * only), one row per merchant with the transaction's timestamp and the keys
 * claimed for it. The claim's wait bound is lifted once the statement is done, as
 * for one request.
 */
export const CLAIM_AND_READ_SQL = prepared(`WITH claimed AS (
    INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ORDER BY 1, 2
    ON CONFLICT (merchant_id, key) DO UPDATE
      SET action = EXCLUDED.action, fingerprint = EXCLUDED.fingerprint, created_at = app_now(),
          response_status = NULL, response_body = NULL, answer_ref = NULL
      WHERE idempotency_keys.created_at <= app_now() - make_interval(secs => $5)
    RETURNING merchant_id, key)
  SELECT b.merchant_id, b.available, app_now() AS now,
         ARRAY(SELECT c.key FROM claimed c WHERE c.merchant_id = b.merchant_id) AS claimed,
         set_config('lock_timeout', '0', true) AS unbounded
  FROM balances b WHERE b.merchant_id = ANY($6::text[])`);

/** writeGroupStatement's text: constant (every value is a parameter), so each connection prepares it once. */
const WRITE_GROUP_SQL = prepared(`WITH req AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::json[],
                           $13::text[], $14::text[], $15::float8[])
        WITH ORDINALITY AS r(id, merchant_id, amount, currency, bank_code, account_number, delay, created_by, status, holder, expiry, ord)),
    tot AS (SELECT merchant_id, sum(amount)::bigint AS total,
                   COALESCE(sum(amount) FILTER (WHERE status = 'awaiting_approval'), 0)::bigint AS waiting
            FROM req GROUP BY merchant_id),
    -- The balances, locked in merchant order before any is updated (the one-time filter below): groups cannot deadlock on them.
    locked AS (
      SELECT count(*) AS n FROM (SELECT 1 FROM balances WHERE merchant_id = ANY(ARRAY(SELECT merchant_id FROM tot)) ORDER BY merchant_id FOR UPDATE) l),
    bal AS (
      UPDATE balances b SET available = b.available - tot.total, pending_payouts = b.pending_payouts + tot.total - tot.waiting,
        awaiting_approval = b.awaiting_approval + tot.waiting, updated_at = app_now()
      FROM tot WHERE b.merchant_id = tot.merchant_id AND b.available >= tot.total AND (SELECT n FROM locked) >= 0
      RETURNING b.merchant_id, b.available + tot.total AS opening),
    entry AS (
      INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
      SELECT r.merchant_id, -r.amount, bal.opening - sum(r.amount) OVER (PARTITION BY r.merchant_id ORDER BY r.ord), 'payout', r.id
      FROM req r JOIN bal ON bal.merchant_id = r.merchant_id ORDER BY r.ord),
    po AS (
      INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, created_by,
                           account_holder_name, approval_expires_at)
      SELECT r.id, r.merchant_id, r.amount, r.currency, r.bank_code, r.account_number, r.status, app_now() + make_interval(secs => r.delay), r.created_by,
             r.holder, app_now() + make_interval(secs => r.expiry)
      FROM req r JOIN bal ON bal.merchant_id = r.merchant_id ORDER BY r.ord
      RETURNING merchant_id, ${PAYOUT_COLUMNS}),
    ${startEventCtes()},
    stored AS (
      UPDATE idempotency_keys k SET response_status = s.status, response_body = s.body, answer_ref = s.ref
      FROM unnest($9::text[], $10::text[], $11::int[], $12::text[], $16::text[]) AS s(merchant_id, key, status, body, ref)
      WHERE k.merchant_id = s.merchant_id AND k.key = s.key
      RETURNING 1)
    SELECT (SELECT count(*) FROM bal)::int AS balances, (SELECT count(*) FROM po)::int AS payouts, (SELECT count(*) FROM stored)::int AS stored`);

/** The stored answers of the group: one per claimed key, a payout or a refusal. */
export interface StoredAnswers {
  merchantIds: string[];
  keys: string[];
  statuses: number[];
  bodies: string[];
  /** What the request log says of each answer: the payout's id, or the refusal's error code. */
  refs: string[];
}

/**
 * Writes the accepted withdrawals (in arrival order) and stores every answer, in
 * one statement: per merchant one conditional update of the balance by the group's
 * total (none if the balance no longer covers it: the caller's count check then
 * rolls the group back);
 * per withdrawal its ledger entry (balance_after as if applied one by one), its
 * payout (pending, or awaiting approval), its events (withdraw-statement.ts) with their deliveries; per claimed key its
 * answer. Returns how many balances and payouts it wrote, so that the caller can
 * check them before COMMIT.
 */
export function writeGroupStatement(accepted: WithdrawalRow[], answers: StoredAnswers) {
  const column = <K extends keyof WithdrawalRow>(k: K) => accepted.map((w) => w[k]);
  const params = [
    column('payoutId'),
    column('merchantId'),
    column('amount'),
    column('currency'),
    column('bankCode'),
    column('accountNumber'),
    column('settleDelaySeconds'),
    column('createdBy'),
    answers.merchantIds,
    answers.keys,
    answers.statuses,
    answers.bodies,
    column('status'),
    column('accountHolderName'),
    column('approvalExpirySeconds'),
    answers.refs,
  ];
  return { sql: WRITE_GROUP_SQL, params };
}
