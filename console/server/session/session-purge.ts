import type { Queryable } from '../../../lib/db/types';

/**
 * Console sessions that ended (expired or signed out) more than `afterSeconds`
 * ago are history nobody reads: the background jobs delete them. No key is
 * touched here (rows hold only its hash), so every server, the standalone one
 * included, can run it; hence no 'server-only'.
 */
export async function purgeEndedConsoleSessions(db: Queryable, afterSeconds = 86_400, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    // LEAST skips NULL: a live session's end is its expiry. Bounded batches, counted, not returned.
    const [row] = await db.query<{ deleted: number }>(
      `WITH gone AS (
         DELETE FROM console_sessions WHERE id IN (
           SELECT id FROM console_sessions WHERE LEAST(revoked_at, expires_at) <= now() - make_interval(secs => $1) LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS deleted FROM gone`,
      [afterSeconds, batchSize],
    );
    total += row!.deleted;
    if (row!.deleted < batchSize) return total;
  }
}
