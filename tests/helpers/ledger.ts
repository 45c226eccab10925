import type { Queryable } from '@/lib/db/types';

/** available, and the sum of the merchant's ledger entries: equal at all times. */
export async function ledgerCheck(db: Queryable, merchantId: string) {
  const [row] = await db.query<{ available: number; ledger: number; payouts: number }>(
    `SELECT b.available,
            (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = $1) AS ledger,
            (SELECT count(*) FROM payouts WHERE merchant_id = $1) AS payouts
     FROM balances b WHERE b.merchant_id = $1`,
    [merchantId],
  );
  return row!;
}
