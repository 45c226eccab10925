import { deleteInBatches } from '../../db/delete-in-batches';
import type { Db } from '../../db/types';

/**
 * Deletes events older than `days` with their deliveries (ON DELETE CASCADE), in
 * batches of short statements; an event with a delivery still pending stays until
 * it ends. Returns how many events went.
 */
export function purgeOldEvents(db: Db, days: number, batchSize = 1000): Promise<number> {
  return deleteInBatches(db, {
    table: 'events',
    key: 'id',
    select: `SELECT e.id FROM events e WHERE e.created_at < now() - make_interval(days => $1)
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
    params: [days],
    batchSize,
    brin: 'events_created',
  });
}
