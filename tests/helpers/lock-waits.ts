import type { Queryable } from '@/lib/db/types';

/** How many sessions wait for a lock the backend `pid` holds (PostgreSQL): a test's way to know a contender has queued behind it. */
export async function sessionsWaitingFor(db: Queryable, pid: number): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [
    pid,
  ]);
  return row!.n;
}
