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
