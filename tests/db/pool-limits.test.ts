// PostgreSQL time limits: a stuck request or client cannot starve the others.
import { describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import { startTestApi } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';

describe.runIf(postgresUrl)('pool and database time limits (postgres)', () => {
  it('answers 503 service_unavailable with Retry-After when no pooled connection frees up in time', async () => {
    const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 1, limits: { connectTimeoutMs: 300 } });
    const api = await startTestApi(db);
    let release!: () => void;
    const held = db.transaction(() => new Promise<void>((r) => (release = r))); // the one connection, busy
    try {
      const t = performance.now();
      const res = await api.call({ action: 'get_balance' });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(performance.now() - t).toBeLessThan(2_000);
    } finally {
      release();
      await held;
      await api.close();
    }
    // Once the connection is back, requests are served again.
    const again = await startTestApi(db);
    expect((await again.call({ action: 'get_balance' })).status).toBe(200);
    await again.close();
    await db.close();
  });

  it('cancels a statement past statement_timeout, and ends transactions left idle', async () => {
    const db = await openDb({
      databaseUrl: await createSchemaUrl(),
      poolSize: 2,
      limits: { statementTimeoutMs: 200, idleInTransactionTimeoutMs: 1_000 },
    });
    try {
      await expect(db.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
      const [row] = await db.query<{ idle_in_transaction_session_timeout: string }>('SHOW idle_in_transaction_session_timeout');
      expect(row!.idle_in_transaction_session_timeout).toBe('1s');
    } finally {
      await db.close();
    }
  });
});
