import { ApiError, REFUND_FAILING_TEST_CARD, type ActionRequest } from '../../contract';
import type { Queryable } from '../../db/types';
import type { ActionContext } from '../pipeline/action';
import { eventCtes, refundJsonSql } from '../webhooks/event-sql';
import { createdBy } from '../pipeline/caller';
import { newId } from '../pipeline/random-id';
import { REFUND_COLUMNS, refundObject, type RefundObject, type RefundRow } from './refund-object';

/**
 * create_refund in the request's transaction, in two conditional statements:
 * 1. the bound: the session's amount_refunded rises only while it stays within the
 *    amount paid (`amount_refunded + n <= amount`), so two refunds of the whole
 *    amount at once cannot both pass; the row lock it takes orders them;
 * 2. the money: available down and pending_refunds up only when available covers
 *    the amount, with the `refund` ledger entry, the refund and its refund.created
 *    event in the same statement.
 * A refusal of the second throws, and the transaction (or the idempotency
 * savepoint) undoes the first. Locks: session, then balance, as a payment takes them.
 */
export async function createRefund(
  ctx: Pick<ActionContext, 'db' | 'merchant' | 'key' | 'settings'>,
  input: ActionRequest<'create_refund'>,
): Promise<RefundObject> {
  const { db, merchant } = ctx;
  const sessionId = input.checkout_session_id;
  const amount = input.amount ?? (await whatIsLeft(db, merchant.id, sessionId));
  const [session] = await db.query<{ payment_card_last4: string | null }>(
    `UPDATE checkout_sessions
     SET amount_refunded = amount_refunded + $3, status = CASE WHEN amount_refunded + $3 = amount THEN 'refunded' ELSE status END
     WHERE id = $1 AND merchant_id = $2 AND status = 'complete' AND amount_refunded + $3 <= amount
     RETURNING payment_card_last4`,
    [sessionId, merchant.id, amount],
  );
  if (!session) throw await refusal(db, merchant.id, sessionId, amount);

  // Test mode: a session paid with the failing card gets refunds that fail when they settle.
  const fails = session.payment_card_last4 === REFUND_FAILING_TEST_CARD.slice(-4);
  const [row] = await db.query<RefundRow>(
    `WITH bal AS (
       UPDATE balances SET available = available - $2, pending_refunds = pending_refunds + $2, updated_at = app_now()
       WHERE merchant_id = $1 AND available >= $2 RETURNING available),
     entry AS (
       INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
       SELECT $1, -$2::bigint, available, 'refund', $3 FROM bal),
     re AS (
       INSERT INTO refunds (id, merchant_id, checkout_session_id, amount, currency, status, reason, fails, settle_after, created_by)
       SELECT $3, $1, $4, $2, $5, 'pending', $6, $7, app_now() + make_interval(secs => $8), $9::json FROM bal
       RETURNING ${REFUND_COLUMNS}),
     ${eventCtes({ from: 're', type: 'refund.created', data: refundJsonSql('re'), merchantSql: '$1' })}
     SELECT * FROM re`,
    [
      merchant.id,
      amount,
      newId('re'),
      sessionId,
      merchant.currency,
      input.reason ?? null,
      fails,
      ctx.settings.settlementDelaySeconds,
      JSON.stringify(createdBy(ctx.key)),
    ],
  );
  if (!row) throw new ApiError('insufficient_funds', `The available balance is lower than the refund of ${amount}.`, 'amount');
  return refundObject(row);
}

/** No amount: the rest of the payment, read under the session's row lock so that the update below cannot miss. */
async function whatIsLeft(db: Queryable, merchantId: string, sessionId: string): Promise<number> {
  const [s] = await db.query<{ remaining: number; status: string }>(
    `SELECT amount - amount_refunded AS remaining, status FROM checkout_sessions WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
    [sessionId, merchantId],
  );
  if (!s) throw notFound(sessionId);
  if (s.status !== 'complete' && s.status !== 'refunded') throw notPaid(sessionId);
  if (Number(s.remaining) === 0) throw exceeded(sessionId, 0);
  return Number(s.remaining);
}

/** Why the conditional update found no row: no such session, not paid, or not that much left. */
async function refusal(db: Queryable, merchantId: string, sessionId: string, amount: number): Promise<ApiError> {
  const [s] = await db.query<{ remaining: number; status: string }>(
    `SELECT amount - amount_refunded AS remaining, status FROM checkout_sessions WHERE id = $1 AND merchant_id = $2`,
    [sessionId, merchantId],
  );
  if (!s) return notFound(sessionId);
  if (s.status !== 'complete' && s.status !== 'refunded') return notPaid(sessionId);
  return exceeded(sessionId, Number(s.remaining), amount);
}

const notFound = (id: string) => new ApiError('not_found', `No such checkout session: ${id}`, 'checkout_session_id');
const notPaid = (id: string) =>
  new ApiError(
    'checkout_session_not_paid',
    `Checkout session ${id} was not paid: only a complete session can be refunded.`,
    'checkout_session_id',
  );
const exceeded = (id: string, left: number, amount?: number) =>
  new ApiError(
    'refund_amount_exceeded',
    left === 0
      ? `Checkout session ${id} is already refunded in full.`
      : `The refund of ${amount} is more than the ${left} left to refund of checkout session ${id}.`,
    'amount',
  );
