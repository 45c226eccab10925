// A node that is no longer the primary still answers during a failover, but refuses writes
// (read_only_sql_transaction, 25006). Its connections are dropped from the pool, never reused, and
// the request gets 503 with Retry-After, never 500. The node is made read-only for real: the
// session's default, as a demoted primary or a standby has it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import { isConnectionSpent, isDatabaseUnavailable } from '@/lib/db/types';
import { startTestApi, withdrawal } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';

const READ_ONLY = 'SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY';

describe('failover errors are the dependency failing', () => {
  it('read_only_sql_transaction and cut or silent connections are unavailable; a constraint is not', () => {
    for (const error of [
      { code: '25006' },
      { code: '57P01' },
      { code: '08006' },
      { code: 'ECONNREFUSED' },
      new Error('Connection terminated unexpectedly'),
      new Error('Query read timeout'),
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(isConnectionSpent(error)).toBe(true);
    }
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    // A statement past its limit is the server's load, not a dead connection: the connection stays pooled.
    expect(isDatabaseUnavailable({ code: '57014' })).toBe(true);
    expect(isConnectionSpent({ code: '57014' })).toBe(false);
  });
});

describe.runIf(postgresUrl)('a pooled connection to a node that is no longer the primary (postgres)', () => {
  it('is dropped after its refused write: the next transaction runs on a fresh connection', async () => {
    const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 1 });
    try {
      const write = () =>
        db.transaction((tx) =>
          tx.query(`INSERT INTO auth_failures (address, window_start, count) VALUES ('t', now(), 1) ON CONFLICT DO NOTHING`),
        );
      // The pool's one connection turns read-only, as a demoted node's do.
      await db.exec(READ_ONLY);
      await expect(write()).rejects.toMatchObject({ code: '25006' });
      // Reused, it would refuse again; dropped, a new connection (read-write) takes the write.
      await expect(write()).resolves.toBeDefined();
      // The same for a statement outside a transaction.
      await db.exec(READ_ONLY);
      await expect(
        db.query(`INSERT INTO auth_failures (address, window_start, count) VALUES ('u', now(), 1) ON CONFLICT DO NOTHING`),
      ).rejects.toMatchObject({ code: '25006' });
      await expect(
        db.query(`INSERT INTO auth_failures (address, window_start, count) VALUES ('u', now(), 1) ON CONFLICT DO NOTHING`),
      ).resolves.toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('answers 503 service_unavailable with Retry-After through the API, never 500, then serves again once the node is writable', async () => {
    // A login role of this test's own whose sessions start read-only on demand, as every session of a demoted node does.
    const role = `ro_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
    const url = new URL(await createSchemaUrl());
    url.username = role;
    const db = await openDb({ databaseUrl: url.toString(), poolSize: 1 });
    const api = await startTestApi(db);
    const setReadOnly = async (on: boolean) => {
      await admin.query(
        on ? `ALTER ROLE ${role} SET default_transaction_read_only = on` : `ALTER ROLE ${role} RESET default_transaction_read_only`,
      );
      if (on) await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
    };
    try {
      await setReadOnly(true);
      const refused = await api.call(withdrawal(10_000), { idempotencyKey: 'not-primary-1' });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('service_unavailable');
      expect(refused.headers.get('retry-after')).toBe('1');
      // Writable again: the read-only connection was dropped, so the retry with the same key runs once, on a fresh one.
      await setReadOnly(false);
      const retried = await api.call(withdrawal(10_000), { idempotencyKey: 'not-primary-1' });
      expect(retried.status).toBe(200);
      expect(retried.headers.get('x-service-idempotent-replayed')).toBeNull();
    } finally {
      await api.close();
      await db.close();
      await admin.query(`DROP ROLE ${role}`).catch(() => {});
      await admin.end();
    }
  });
});
