import { eventCtes, payoutJsonSql, payoutStartEvents } from '../webhooks/event-sql';
import type { StartStatus } from './approval-policy';
import { claimConflictSql } from '../pipeline/idempotency';
import type { IdempotentCall } from '../pipeline/idempotency-key';
import { storeAnswerSql, type InlineAnswer } from '../pipeline/stored-answer';
import { PAYOUT_COLUMNS } from './payout-object';
import { prepared } from '../../db/prepared';

export interface WithdrawalRow {
  payoutId: string;
  merchantId: string;
  amount: number;
  currency: string;
  bankCode: string;
  accountNumber: string;
  settleDelaySeconds: number;
  /** The key that made it, as JSON (payouts' created_by). */
  createdBy: string;
  /** pending, or awaiting_approval when the merchant's policy catches it (approval-policy.ts). */
  status: StartStatus;
  /** The bank's name for the account (bank-accounts.ts); null for an account that does not exist. */
  accountHolderName: string | null;
  /** Seconds until it expires unapproved; null unless it awaits approval. */
  approvalExpirySeconds: number | null;
}

/** The events of a new payout, over the CTE `po`: payout.created, and payout.awaiting_approval when it waits. */
export const startEventCtes = (merchantSql?: string) => `
    started AS ${payoutStartEvents('po')},
    ${eventCtes({ from: 'started', type: { sql: 'started.type', order: 'started.pn, started.n' }, data: payoutJsonSql('started'), merchantSql })}`;

/**
 * A withdrawal in one statement: the conditional move from `available` to
 * `pending_payouts` (or, when it waits for approval, to `awaiting_approval`),
 * its ledger entry, the payout and its events (with their deliveries, by the
 * events trigger), each written only when the balance covered the amount (no
 * row back: refused, nothing written). Under an idempotency key (`inline`) the
 * statement also stores `answer`, the payout as answered. The transaction then only has COMMIT left: the merchant's
 * balance row, the one every withdrawal of the merchant waits for, is locked for
 * one round trip. The bench's floor runs this very statement. Its two texts (with and without a stored
 * answer) are prepared: planning took about as long as running it (bench/explain-withdraw.ts).
 */
export function withdrawStatement(w: WithdrawalRow, inline?: Pick<InlineAnswer, 'merchantId' | 'key'>, answer?: string) {
  const params = withdrawalParams(w);
  const stored =
    inline && answer !== undefined ? storeAnswerSql(inline.merchantId, inline.key, answer, w.payoutId, params.length + 1, 'po') : undefined;
  const sql = prepared(`WITH ${writeCtes('')}${
    stored
      ? `,
    stored AS (${stored.sql})`
      : ''
  }
    SELECT * FROM po`);
  return { sql, params: stored ? [...params, ...stored.params] : params };
}

/** The statement's first 13 parameters, shared by both statements. */
function withdrawalParams(w: WithdrawalRow): unknown[] {
  const waits = w.status === 'awaiting_approval';
  return [
    w.merchantId,
    w.amount,
    w.payoutId,
    w.currency,
    w.bankCode,
    w.accountNumber,
    w.settleDelaySeconds,
    w.createdBy,
    w.status,
    w.accountHolderName,
    w.approvalExpirySeconds,
    waits ? 0 : w.amount,
    waits ? w.amount : 0,
  ];
}

/** The balance's conditional move, the ledger entry, the payout and its events; `condition` gates the move. */
const writeCtes = (condition: string) => `bal AS (
      UPDATE balances SET available = available - $2, pending_payouts = pending_payouts + $12::bigint,
        awaiting_approval = awaiting_approval + $13::bigint, updated_at = app_now()
      WHERE merchant_id = $1 AND available >= $2${condition} RETURNING available),
    entry AS (
      INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
      SELECT $1, -$2::bigint, available, 'payout', $3 FROM bal),
    po AS (
      INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, created_by,
                           account_holder_name, approval_expires_at)
      SELECT $3, $1, $2, $4, $5, $6, $9, app_now() + make_interval(secs => $7), $8::json,
             $10, app_now() + make_interval(secs => $11::float8) FROM bal
      RETURNING ${PAYOUT_COLUMNS}),
    ${startEventCtes('$1')}`;

/** A timestamp as the answer's text has it (JavaScript's toISOString: milliseconds, truncated as node-postgres reads them). */
export const isoSql = (timestamp: string) => `to_char((${timestamp}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Why a claiming statement rolled itself back (abort_statement, migration 086). */
export const NOT_COVERED = 'withdrawal not covered by the balance';

/**
 * A keyed withdrawal as one statement that is its own transaction (withdraw-one-statement.ts): it bounds
 * the claim's wait for a duplicate, claims the key with the answer already in it, lifts the bound, and
 * writes only when the claim took. The answer's timestamps are the transaction's, written into
 * `template` where it holds `marks.now` and `marks.expires`. No row back: the key was in use, nothing
 * written. The balance no longer covering the amount once locked ends the statement with NOT_COVERED,
 * undoing the claim. Params after the 13: merchant, key, action, fingerprint, retention seconds, the
 * template, the wait bound (`'5000ms'`), the two marks.
 */
export function withdrawClaimingStatement(
  w: WithdrawalRow,
  call: IdempotentCall,
  template: string,
  marks: { now: string; expires: string },
) {
  const sql = prepared(`WITH bound AS (SELECT set_config('lock_timeout', $20, true) AS lock_timeout),
    claim AS (
      INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint, response_status, response_body, answer_ref)
      SELECT $14, $15, $16, $17, 200,
             replace(replace($19, $21, ${isoSql('app_now()')}),
                     $22, coalesce(${isoSql('app_now() + make_interval(secs => $11::float8)')}, '')), $3
      FROM bound
      ${claimConflictSql('$18', 'inserted')}
      RETURNING response_body, set_config('lock_timeout', '0', true) AS unbounded),
    ${writeCtes(' AND EXISTS (SELECT 1 FROM claim)')}
    SELECT response_body FROM claim
    WHERE CASE WHEN EXISTS (SELECT 1 FROM po) THEN true ELSE abort_statement('${NOT_COVERED}') END`);
  const params = [
    ...withdrawalParams(w),
    call.merchantId,
    call.key,
    call.action,
    call.fingerprint,
    call.ttlSeconds,
    template,
    `${Math.max(1, Math.round(call.waitSeconds * 1000))}ms`,
    marks.now,
    marks.expires,
  ];
  return { sql, params };
}
