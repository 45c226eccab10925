// The index migration (012) on a big history, on PostgreSQL: withdrawals keep being answered while it
// runs (CREATE INDEX CONCURRENTLY, outside a transaction), and a build that died half way (an INVALID
// index left behind) is dropped and built again by the next start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@/lib/db/migrate';
import { migrations } from '@/lib/db/migrations';
import { openPostgresDb } from '@/lib/db/postgres-db';
import type { Db } from '@/lib/db/types';
import { callApi, startTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { writeHistory } from '../../testing/volume-data';
import { withWithdrawalsMeanwhile } from '../helpers/withdrawals-meanwhile';

const N = Number(process.env.MIGRATION_LOAD_PAYOUTS ?? 200_000);
const INDEXES = migrations.find((m) => m.version === 12)!;
const indexNames = 'indexes' in INDEXES ? INDEXES.indexes.map((i) => i.name) : [];

describe.runIf(postgresUrl)('the index migration under load (postgres)', () => {
  let db: Db;
  let api: TestApi;
  beforeAll(async () => {
    db = openPostgresDb(await createSchemaUrl(), 20, { statementTimeoutMs: 600_000 });
    // Everything but the indexes, as a database of the previous version with a long history.
    await migrate(
      db,
      migrations.filter((m) => m.version !== 12),
    );
    api = await startTestApi(db, { openingBalance: 1_000_000_000_000 });
    const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [api.merchant.id]);
    await writeHistory(db, { merchantId: api.merchant.id, keyId: key!.id, n: N, tag: 'h' });
  }, 600_000);
  afterAll(async () => {
    await api?.close();
    await db?.close();
  });

  it('answers withdrawals all the while the indexes are built, then every index is valid', async () => {
    // Four clients withdrawing back to back, and every 20 ms: is any writer (RowExclusiveLock) waiting for a lock on a
    // history table? (The build itself may wait, for autovacuum say: that blocks no one.)
    const tables = ['payouts', 'ledger_entries', 'events', 'request_log', 'webhook_deliveries'];
    const load = await withWithdrawalsMeanwhile(api, db, tables, () => migrate(db));
    const { result: applied, ms: migrationMs, during, statuses, blockedSamples, samples, slowest } = load;
    // The figures first, so that a failure below shows them.
    process.stdout.write(
      `[migration under load] ${N} payouts: indexes built in ${Math.round(migrationMs)} ms; ${during.length} withdrawals answered meanwhile, slowest ${Math.round(slowest)} ms; writers waiting on a table lock in ${blockedSamples} of ${samples} samples\n`,
    );
    // A plain CREATE INDEX takes a SHARE lock: every withdrawal would queue behind it, seen here as a waiting lock.
    expect({ samples: samples > 20, blockedSamples }).toEqual({ samples: true, blockedSamples: 0 });

    expect(applied).toEqual([12]);
    expect([...statuses.keys()]).toEqual([200]);
    // Answered throughout: many withdrawals during a build of several seconds, none held for the build. The bound
    // scales with the build (slowest 0.75 s of a 4 s build alone; over 2 s once in a full npm test sharing both
    // cores): the waiting-lock samples above are the exact check, this one says no withdrawal waited out the build.
    expect({ answered: during.length > migrationMs / 100, notHeld: slowest < Math.max(2_000, migrationMs / 2) }).toEqual({
      answered: true,
      notHeld: true,
    });
    const valid = await db.query<{ name: string; valid: boolean }>(
      'SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ANY($1) AND c.relnamespace = current_schema()::regnamespace',
      [indexNames],
    );
    expect(
      valid
        .filter((v) => v.valid)
        .map((v) => v.name)
        .sort(),
    ).toEqual([...indexNames].sort());
  });

  it('would see the writers blocked by a build that is not concurrent (the check above can fail)', async () => {
    let building = true;
    let blocked = 0;
    const client = (async () => {
      while (building) await callApi(api.url, api.merchant.secretKey, withdrawal(10_000), { idempotencyKey: crypto.randomUUID() });
    })();
    const sampler = (async () => {
      while (building) {
        const [row] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'relation' AND mode = 'RowExclusiveLock' AND relation = 'payouts'::regclass`,
        );
        blocked += row!.n;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    await db.exec('CREATE INDEX payouts_blocking_probe ON payouts (merchant_id, amount, created_at, account_number)');
    building = false;
    await Promise.all([client, sampler]);
    await db.exec('DROP INDEX payouts_blocking_probe');
    expect(blocked).toBeGreaterThan(0);
  });

  it('drops an INVALID index that an interrupted build left, and builds it again', async () => {
    const name = 'payouts_merchant_status';
    await db.exec(`DROP INDEX ${name}`);
    await db.query(`DELETE FROM schema_migrations WHERE version = 12`);
    // A concurrent build that fails half way leaves its index INVALID (here: a unique index over duplicates).
    await expect(db.exec(`CREATE UNIQUE INDEX CONCURRENTLY ${name} ON payouts (merchant_id)`)).rejects.toThrow();
    expect(
      (await db.query<{ valid: boolean }>('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name]))[0],
    ).toEqual({ valid: false });
    expect(await migrate(db)).toEqual([12]);
    const [def] = await db.query<{ valid: boolean; def: string }>(
      'SELECT i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i WHERE indexrelid = to_regclass($1)',
      [name],
    );
    expect(def!.valid).toBe(true);
    expect(def!.def).toContain('(merchant_id, status, seq)');
  });
});
