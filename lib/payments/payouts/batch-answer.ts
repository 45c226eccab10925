import type { Queryable } from '../../db/types';
import { checkedOnTheWay } from '../pipeline/list-page';

/**
 * A batch's answer as the idempotency store keeps it: it lists its up to 1,000 payout ids, which the
 * payouts already hold (batch_id, in item order), so it is stored with an empty `payout_ids` and the
 * list is put back on a replay (Action.expandStored), byte for byte (same keys in the same order). A
 * batch always has at least one payout, so an empty list can only mean "put back".
 */
export const compactBatchAnswer = (answer: { payout_ids: string[] }) => JSON.stringify({ ...answer, payout_ids: [] });

export async function expandBatchAnswer(db: Queryable, merchantId: string, body: string): Promise<string> {
  const answer = JSON.parse(body) as { id: string; payout_ids: string[] };
  if (answer.payout_ids.length > 0) return body;
  return JSON.stringify({ ...answer, payout_ids: await batchPayoutIds(db, answer.id, merchantId) });
}

/**
 * A batch's payout ids in item order (the batch wrote them in `seq` order), through payouts_in_batch (sorted: at
 * most 1,000 rows). The merchant is checked on each row (a batch is one merchant's): as an index condition it would
 * have the planner without statistics gather the merchant's payouts too.
 */
export async function batchPayoutIds(db: Queryable, batchId: string, merchantId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM payouts WHERE batch_id = $1 AND ${checkedOnTheWay('merchant_id = $2')} ORDER BY seq`,
    [batchId, merchantId],
  );
  return rows.map((r) => r.id);
}
