/**
 * The payout indexes that held `status` (in the key or the predicate), replaced by payout_states
 * (migrations 050-051): with them gone, settlement changes no indexed column of payouts and is a HOT
 * update. Dropped CONCURRENTLY on PostgreSQL: writes go on.
 */
export const droppedStatusIndexes = ['payouts_due', 'payouts_merchant_status', 'payouts_approval_due', 'payouts_awaiting'];
