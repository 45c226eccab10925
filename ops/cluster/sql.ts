import pg from 'pg';

/**
 * One statement on a fresh connection, bounded in time: a probe of a cluster that may be failing
 * over must not hang on a dead node or a commit waiting for a standby.
 */
export async function probe<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether `url` reaches a server that takes writes (a transaction id assigned and committed). */
export async function takesWrites(url: string): Promise<boolean> {
  return probe<{ ro: boolean }>(url, 'SELECT pg_is_in_recovery() AS ro, txid_current()').then(
    (rows) => rows[0]?.ro === false,
    () => false,
  );
}
