/**
 * A batch keeps who made it, once, instead of each of its up to 1,000 payouts: `created_by` is about 74 bytes
 * of a settled payout's 309, and at fill factor 45 (room for each row's settled version on its page) 16 of the
 * shorter rows fit a page instead of 12 (docs/prove.md, "Bytes per settled payout"). A batch's payouts store
 * NULL, except those that wait for approval (their events keep copies, written by the statement that writes
 * the batch, which cannot see the batch row yet); reads take the batch's (payoutCreatedBySql in
 * lib/payments/webhooks/event-sql.ts). Payouts made before this migration keep their own. Adding a nullable column is
 * a catalog change of the small batches table: no rewrite.
 */
export const sql = `ALTER TABLE payout_batches ADD COLUMN created_by json;`;
