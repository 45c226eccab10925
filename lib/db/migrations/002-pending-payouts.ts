/**
 * balances.pending_payouts: the sum of the merchant's pending payouts, kept with
 * the balance so get_balance reads one row instead of summing payouts. Backfilled
 * here from the payouts pending now. Stop instances of the previous version before
 * it runs: they move money without touching this column.
 */
export const sql = /* sql */ `
ALTER TABLE balances
  ADD COLUMN pending_payouts bigint NOT NULL DEFAULT 0 CHECK (pending_payouts >= 0);

UPDATE balances b SET pending_payouts = p.total
FROM (SELECT merchant_id, SUM(amount) AS total FROM payouts WHERE status = 'pending' GROUP BY merchant_id) p
WHERE p.merchant_id = b.merchant_id;
`;
