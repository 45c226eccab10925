import type { Queryable } from '../db/types';

/**
 * Deletes events older than `days` with their deliveries (ON DELETE CASCADE), in
 * batches of short statements; an event with a delivery still pending stays until
 * it ends. Returns how many events went.
 */
export async function purgeOldEvents(db: Queryable, days: number, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await db.query<{ deleted: number }>(
      `WITH gone AS (
         DELETE FROM events WHERE id IN (
           SELECT e.id FROM events e WHERE e.created_at < now() - make_interval(days => $1)
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
           LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS deleted FROM gone`,
      [days, batchSize],
    );
    total += row!.deleted;
    if (row!.deleted < batchSize) return total;
  }
}
