import type { Queryable } from '@/lib/db/types';

/**
 * available and the sum of the merchant's ledger entries; pending (the balance's
 * pending_payouts) and pendingSum (the sum of its pending payouts). Each pair is
 * equal at all times. One statement, so one snapshot even under load.
 */
export async function ledgerCheck(db: Queryable, merchantId: string) {
  const [row] = await db.query<{ available: number; ledger: number; pending: number; pendingSum: number; payouts: number }>(
    `SELECT b.available,
            (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = $1) AS ledger,
            b.pending_payouts AS pending,
            (SELECT COALESCE(SUM(amount), 0) FROM payouts WHERE merchant_id = $1 AND status = 'pending') AS "pendingSum",
            (SELECT count(*) FROM payouts WHERE merchant_id = $1) AS payouts
     FROM balances b WHERE b.merchant_id = $1`,
    [merchantId],
  );
  return row!;
}

/**
 * The money invariant with refunds, in one statement: available and the ledger's sum;
 * pending_refunds and the sum of pending refunds; everything in (the ledger's opening
 * balances, top-ups and checkout payments) minus everything out (paid payouts, succeeded
 * refunds) against available + pending_payouts + awaiting_approval + pending_refunds; and sessions whose
 * amount_refunded is not the sum of their refunds that did not fail (none, when exact).
 */
export async function refundCheck(db: Queryable, merchantId: string) {
  const [row] = await db.query<{
    available: number;
    ledger: number;
    pendingPayouts: number;
    pendingRefunds: number;
    pendingRefundSum: number;
    held: number;
    inMinusOut: number;
    sessionsOff: number;
  }>(
    `SELECT b.available,
            (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = $1) AS ledger,
            b.pending_payouts AS "pendingPayouts",
            b.pending_refunds AS "pendingRefunds",
            (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE merchant_id = $1 AND status = 'pending') AS "pendingRefundSum",
            b.available + b.pending_payouts + b.awaiting_approval + b.pending_refunds AS held,
            (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = $1 AND kind IN ('opening_balance', 'adjustment', 'topup', 'checkout_payment'))
              - (SELECT COALESCE(SUM(amount), 0) FROM payouts WHERE merchant_id = $1 AND status = 'paid')
              - (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE merchant_id = $1 AND status = 'succeeded') AS "inMinusOut",
            (SELECT count(*) FROM checkout_sessions s WHERE s.merchant_id = $1 AND s.amount_refunded <>
               (SELECT COALESCE(SUM(amount), 0) FROM refunds r WHERE r.checkout_session_id = s.id AND r.status <> 'failed'))::int AS "sessionsOff"
     FROM balances b WHERE b.merchant_id = $1`,
    [merchantId],
  );
  return row!;
}

/** Asserts every equality of refundCheck. */
export function isExact(check: Awaited<ReturnType<typeof refundCheck>>) {
  return (
    check.available === check.ledger &&
    check.pendingRefunds === check.pendingRefundSum &&
    check.held === check.inMinusOut &&
    check.sessionsOff === 0
  );
}
