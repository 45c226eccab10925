// Behind PgBouncer in transaction mode (DATABASE_POOLER=transaction): nothing relies on a session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import { openPostgresDb } from '@/lib/db/postgres-db';
import type { Db } from '@/lib/db/types';
import { sourceFiles, readSource } from '../architecture/source-files';
import { startTestApi, withdrawal } from '../helpers/api-server';
import { ledgerCheck } from '../../testing/ledger';
import { hasPgbouncer, startPgbouncer, type Pgbouncer } from '../helpers/pgbouncer';

describe('nothing in the data layer needs a session (a transaction pooler hands each transaction any server connection)', () => {
  // Except the migrations: they hold one session on purpose (an advisory lock, CREATE INDEX CONCURRENTLY outside a
  // transaction) and run on DATABASE_DIRECT_URL, which a start behind a pooler requires (start-checks.ts).
  const files = sourceFiles(['lib', 'console']).filter((f) => f !== 'lib/db/migrate.ts' && !f.startsWith('lib/db/migrations/'));
  it.each([
    ['LISTEN / NOTIFY', /\b(LISTEN|UNLISTEN|NOTIFY)\s+\w/],
    ['a session advisory lock (only pg_advisory_xact_lock)', /pg_(try_)?advisory_lock(_shared)?\s*\(/],
    // A statement that starts with SET (not UPDATE … SET): after a quote, a semicolon or a line's start.
    ['a session setting (only SET LOCAL, set_config(…, true))', /(^|[`'";]\s*)SET\s+(SESSION\s+)?(?!LOCAL\b)\w+\s*(=|TO)\s/im],
    ['set_config for the session', /set_config\([^)]*,\s*false\s*\)/i],
    ['a named prepared statement', /\bPREPARE\s+\w+|\bname:\s*['"`][^'"`]+['"`],\s*text:/],
    ['a temporary table or a held cursor', /\bCREATE\s+TEMP(ORARY)?\s+TABLE|\bWITH\s+HOLD\b/i],
  ])('no %s in lib/ or console/', (_what, pattern) => {
    const found = files.filter((f) => pattern.test(readSource(f)));
    expect(found).toEqual([]);
  });
});

describe.runIf(hasPgbouncer)('through a real PgBouncer in transaction mode (postgres)', () => {
  let pb: Pgbouncer;
  beforeAll(async () => {
    // Two server connections for every client: consecutive transactions land on different sessions.
    pb = await startPgbouncer({ serverPool: 2 });
  });
  afterAll(() => pb?.close());

  it('a pool that sends its limits as startup parameters is refused by PgBouncer (why the pooler mode exists)', async () => {
    const db = openPostgresDb(pb.url, 1);
    try {
      await expect(db.query('SELECT 1')).rejects.toThrow(/unsupported startup parameter/);
    } finally {
      await db.close();
    }
  });

  it('migrates over the direct URL, then serves the API through the pooler with its limits in every transaction', async () => {
    const logStart = pb.log().length;
    const db: Db = await openDb({
      databaseUrl: pb.url,
      directUrl: pb.directUrl,
      pooler: 'transaction',
      poolSize: 8,
      limits: { statementTimeoutMs: 700, idleInTransactionTimeoutMs: 4_000 },
    });
    const api = await startTestApi(db, { openingBalance: 1_000_000 });
    try {
      const limits = await db.transaction((tx) =>
        tx.query<{ s: string; i: string }>(
          `SELECT current_setting('statement_timeout') AS s, current_setting('idle_in_transaction_session_timeout') AS i`,
        ),
      );
      expect(limits).toEqual([{ s: '700ms', i: '4s' }]);
      await expect(db.transaction((tx) => tx.query('SELECT pg_sleep(2)'))).rejects.toMatchObject({ code: '57014' });

      // Duplicates of each key at once (group commit, the idempotency claim's lock_timeout), and more than the balance covers.
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => api.call(withdrawal(40_000), { idempotencyKey: `pgb-${i % 30}` })),
      );
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      const paid = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.id));
      const refused = answers.filter((a) => a.status === 422).length;
      expect(paid.size).toBe(25); // 1,000,000 / 40,000
      expect(refused).toBe(10); // the 5 keys past the balance, each twice
      const check = await ledgerCheck(db, api.merchant.id);
      expect(check).toMatchObject({ payouts: 25, available: 0, ledger: 0 });
      expect(check.pending).toBe(check.pendingSum);
    } finally {
      await api.close();
      await db.close();
    }
    expect(pb.log().slice(logStart)).not.toMatch(/unsupported startup parameter|prepared statement .* does not exist/);
  });
});
