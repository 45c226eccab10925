import type { Queryable } from './types';

/**
 * Failed authentications per client address in fixed clock-minute windows, kept
 * in the database so that every instance on it counts against one limit. The row
 * `*` counts every address together. Old windows are purged by a background job.
 */
export const ALL_ADDRESSES = '*';

/** SQL expressions over `auth_failures` for the current window, for use inside a larger query. */
export const failuresNowSql = (addressParam: string) =>
  `COALESCE((SELECT count FROM auth_failures WHERE address = ${addressParam} AND window_start = date_trunc('minute', now())), 0)`;
export const windowEndsInSql = `CEIL(EXTRACT(EPOCH FROM date_trunc('minute', now()) + interval '1 minute' - now()))::int`;

/** This minute's failures of `address`, and the seconds until the window ends. */
export async function failuresNow(db: Queryable, address: string): Promise<{ failures: number; retryAfter: number }> {
  const [row] = await db.query<{ failures: number; retry_after: number }>(
    `SELECT ${failuresNowSql('$1')} AS failures, ${windowEndsInSql} AS retry_after`,
    [address],
  );
  return { failures: row!.failures, retryAfter: Math.max(1, row!.retry_after) };
}

/** Counts one failure for each address (one statement). */
export async function recordFailure(db: Queryable, addresses: string[]): Promise<void> {
  await db.query(
    `INSERT INTO auth_failures (address, window_start, count)
     SELECT a, date_trunc('minute', now()), 1 FROM unnest($1::text[]) AS a
     ON CONFLICT (address, window_start) DO UPDATE SET count = auth_failures.count + 1`,
    [addresses],
  );
}

/** Deletes windows that ended; returns how many went. */
export async function purgeAuthFailures(db: Queryable): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM auth_failures WHERE window_start < date_trunc('minute', now()) - interval '1 minute' RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
  );
  return row!.deleted;
}
