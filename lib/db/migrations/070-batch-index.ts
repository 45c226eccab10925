/**
 * A batch's payouts found by its id alone, not (batch_id, seq): every key of the index is a batch's id
 * repeated for its up to 1,000 payouts, so B-tree deduplication stores each id once with a list of its
 * rows (about 7 bytes per payout instead of 98: the text id and seq in every entry, docs/prove.md "Bytes
 * per settled payout"). A read by batch sorts its rows by seq: at most a batch, 1,000 rows, bounded as
 * before. Built CONCURRENTLY on PostgreSQL, then the old index dropped likewise: writes go on.
 */
export const batchIndex = { name: 'payouts_in_batch', on: 'payouts (batch_id)', where: 'batch_id IS NOT NULL' };

export const replacedBatchIndexes = ['payouts_batch'];
