import type { Queryable } from '../db/types';

/**
 * Console sessions that ended (expired or signed out) more than `afterSeconds`
 * ago are history nobody reads: the background jobs delete them. No key is
 * touched here (rows hold only its hash), so every server, the standalone one
 * included, can run it; hence no 'server-only'.
 */
export async function purgeEndedConsoleSessions(db: Queryable, afterSeconds = 86_400): Promise<number> {
  // LEAST skips NULL: a live session's end is its expiry.
  const rows = await db.query(
    `DELETE FROM console_sessions WHERE LEAST(revoked_at, expires_at) <= now() - make_interval(secs => $1) RETURNING 1`,
    [afterSeconds],
  );
  return rows.length;
}
