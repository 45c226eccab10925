import { REFUND_FAILURES } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import { eventCtes, refundJsonSql } from '../webhooks/event-sql';
import { notOnTestClockSql } from '../pipeline/clock';

export interface DueRefund {
  id: string;
  merchant_id: string;
  /** Test mode: the session was paid with the refund-failing card. */
  fails: boolean;
  settle_attempts: number;
}

export type RefundOutcome = 'succeeded' | 'failed';

export interface RefundSettlementResult {
  succeeded: number;
  failed: number;
  /** Refunds whose settlement threw: rolled back alone and retried later, with backoff. */
  postponed: number;
}

/**
 * Settles pending refunds whose time has come, each exactly once: one short
 * transaction per refund, claimed with FOR UPDATE SKIP LOCKED (instances share the
 * work). One at a time because a failed refund locks its session and then the
 * balance, the order create_refund and a payment take them in: a transaction
 * holding a balance from an earlier refund while waiting for a session could
 * deadlock with a refund being created. A refund whose settlement throws is
 * rolled back alone and postponed with backoff; the rest go on.
 */
export async function settleDueRefunds(
  db: Db,
  limits: { maxRefunds?: number } = {},
  onPostponed: (failure: { refundId: string; merchantId: string; error: unknown }) => void = () => {},
): Promise<RefundSettlementResult> {
  const { maxRefunds = 500 } = limits;
  const total: RefundSettlementResult = { succeeded: 0, failed: 0, postponed: 0 };
  for (let i = 0; i < maxRefunds; i++) {
    const done = await db.transaction(async (tx) => {
      const [refund] = await tx.query<DueRefund>(
        `SELECT id, merchant_id, fails, settle_attempts FROM refunds
         WHERE status = 'pending' AND settle_after <= app_now() AND ${notOnTestClockSql('refunds')}
         ORDER BY settle_after, seq LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!refund) return false;
      await tx.query('SAVEPOINT one_refund');
      try {
        const outcome: RefundOutcome = refund.fails ? 'failed' : 'succeeded';
        await settleRefund(tx, refund.id, outcome);
        await tx.query('RELEASE SAVEPOINT one_refund');
        total[outcome]++;
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT one_refund');
        await tx.query(
          `UPDATE refunds SET settle_attempts = settle_attempts + 1,
             settle_after = app_now() + make_interval(secs => LEAST(3600, 10 * power(2, settle_attempts))) WHERE id = $1`,
          [refund.id],
        );
        total.postponed++;
        if (refund.settle_attempts === 0) onPostponed({ refundId: refund.id, merchantId: refund.merchant_id, error });
      }
      return true;
    });
    if (!done) break;
  }
  return total;
}

/**
 * One pending refund settles, in one statement: its status and event, and the
 * balance. Succeeded: it leaves pending_refunds for good. Failed: the money goes
 * back to available with a `refund_reversal` ledger entry, and the session's
 * amount_refunded gives it back (a fully refunded session is `complete` again).
 * A refund no longer pending changes nothing (returns false).
 */
export async function settleRefund(tx: Queryable, refundId: string, outcome: RefundOutcome): Promise<boolean> {
  if (outcome === 'succeeded') {
    const [row] = await tx.query<{ n: number }>(
      `WITH u AS (
         UPDATE refunds SET status = 'succeeded', settled_at = app_now() WHERE id = $1 AND status = 'pending' RETURNING *),
       bal AS (
         UPDATE balances b SET pending_refunds = b.pending_refunds - u.amount, updated_at = app_now() FROM u
         WHERE b.merchant_id = u.merchant_id RETURNING b.merchant_id),
       ${eventCtes({ from: 'u', type: 'refund.succeeded', data: refundJsonSql('u') })}
       SELECT (SELECT count(*) FROM bal)::int AS n`,
      [refundId],
    );
    return row!.n === 1;
  }
  const code = 'expired_or_canceled_card' as const;
  // bal joins cs, so the session row is locked before the balance row, the order create_refund takes.
  // Without that the executor updated the balance first (cs, read by nothing, ran last), and a refund
  // being created on the same session, holding it and waiting for the balance, deadlocked with it.
  const [row] = await tx.query<{ n: number }>(
    `WITH u AS (
       UPDATE refunds SET status = 'failed', failure_code = $2, failure_message = $3, settled_at = app_now()
       WHERE id = $1 AND status = 'pending' RETURNING *),
     cs AS (
       UPDATE checkout_sessions s SET amount_refunded = s.amount_refunded - u.amount,
         status = CASE WHEN s.status = 'refunded' THEN 'complete' ELSE s.status END
       FROM u WHERE s.id = u.checkout_session_id RETURNING s.id),
     bal AS (
       UPDATE balances b SET pending_refunds = b.pending_refunds - u.amount, available = b.available + u.amount, updated_at = app_now()
       FROM u JOIN cs ON cs.id = u.checkout_session_id
       WHERE b.merchant_id = u.merchant_id RETURNING b.merchant_id, b.available, u.amount, u.id AS refund_id),
     entry AS (
       INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
       SELECT merchant_id, amount, available, 'refund_reversal', refund_id FROM bal),
     ${eventCtes({ from: 'u', type: 'refund.failed', data: refundJsonSql('u') })}
     SELECT (SELECT count(*) FROM bal)::int AS n`,
    [refundId, code, REFUND_FAILURES[code]],
  );
  return row!.n === 1;
}
