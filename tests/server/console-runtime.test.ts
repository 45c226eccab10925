// A console-only process (PAYMENT_API_BASE_URL set) opens its own store and nothing of the payment schema, and has no payment core.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/config/env';
import { openPostgresDb } from '@/lib/db/postgres-db';
import { createLogger } from '@/lib/log';
import { createAppServer } from '@/lib/server/app-server';
import { composeProcess } from '@/scripts/roots/compose';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { freshDataDir } from '../../testing/pglite-template';

const silent = createLogger({ level: 'silent' });
const SESSION_SECRET = 'console-runtime-session-secret-0123456789abcdef';
const settingsFor = (dataDir: string, extra: Record<string, string> = {}) =>
  parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SECRET_KEY: 'sk_test_consoleOnlyConsoleOnly0123456789abcdef', ...extra });
const tables = async (db: { query<T>(sql: string): Promise<T[]> }) =>
  (
    await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    )
  ).map((r) => r.name);

describe('console-only runtime', () => {
  it('creates only the console store: sessions and sign-in counts; no merchants, no payouts, no demo merchant', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-only-'));
    const { api, served: runtime } = await composeProcess(settingsFor(dir, { PAYMENT_API_BASE_URL: 'http://127.0.0.1:9' }), silent);
    try {
      expect(api).toBeUndefined();
      expect(runtime.core).toBeUndefined();
      expect(await tables(runtime.db)).toEqual(['auth_failures', 'console_schema_migrations', 'console_sessions']);
      const app = createAppServer({ runtime, shutdownGraceMs: 1000 });
      await app.listen(0, '127.0.0.1');
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const res = await fetch(`${url}/v1/index.php`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
      expect((await res.json()).error.message).toContain('http://127.0.0.1:9');
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      await app.shutdown();
    } finally {
      await runtime.stop().catch(() => {});
    }
  });

  it('shares a payment database when pointed at one: its tables are already there', async () => {
    // The payment database a full runtime keeps: a copy of the migrated template (made from nothing, 10 s of initdb).
    const dir = freshDataDir('console-shared');
    const full = await composeProcess(settingsFor(dir), silent);
    expect(full.api).toBeDefined();
    expect(full.console.db).toBe(full.api!.db);
    await full.served.stop();
    const { served: runtime } = await composeProcess(settingsFor(dir, { PAYMENT_API_BASE_URL: 'http://127.0.0.1:9' }), silent);
    try {
      await runtime.db.query(
        `INSERT INTO console_sessions (id, merchant_id, key_hash, expires_at) VALUES ('sess_1', 'acct_elsewhere', 'h', now() + interval '1 hour')`,
      );
      expect(await tables(runtime.db)).toContain('payouts');
    } finally {
      await runtime.stop();
    }
  });

  it.runIf(postgresUrl)(
    'refuses CONSOLE_DATABASE_URL without SESSION_SECRET, before opening it: instances sharing a store share the cookie secret (postgres)',
    async () => {
      const url = await createSchemaUrl();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-pg-'));
      await expect(
        composeProcess(settingsFor(dir, { PAYMENT_API_BASE_URL: 'http://127.0.0.1:9', CONSOLE_DATABASE_URL: url }), silent),
      ).rejects.toThrow(/SESSION_SECRET must be set when DATABASE_URL or CONSOLE_DATABASE_URL/);
      const db = openPostgresDb(url);
      try {
        expect(await tables(db)).toEqual([]);
      } finally {
        await db.close();
      }
      fs.rmSync(dir, { recursive: true });
    },
  );

  it.runIf(postgresUrl)('uses CONSOLE_DATABASE_URL, a PostgreSQL database of its own, when given (postgres)', async () => {
    const url = await createSchemaUrl();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-pg-'));
    const { served: runtime } = await composeProcess(
      settingsFor(dir, { PAYMENT_API_BASE_URL: 'http://127.0.0.1:9', CONSOLE_DATABASE_URL: url, SESSION_SECRET }),
      silent,
    );
    try {
      expect(runtime.db.kind).toBe('postgres');
      expect(await tables(runtime.db)).toEqual(['auth_failures', 'console_schema_migrations', 'console_sessions']);
    } finally {
      await runtime.stop();
    }
  });
});
