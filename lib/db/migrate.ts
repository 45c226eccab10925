import { migrations, type Migration } from './migrations';
import type { RepeatedStep } from './migrations/migration';
import type { Db, Queryable } from './types';

/**
 * The advisory lock that serialises migrations across instances: an arbitrary constant, and the
 * schema (instances of one deployment share it; the test suite's schemas migrate side by side).
 */
const MIGRATION_LOCK = 4_242_001;
const LOCK_KEY = `$1::int, hashtext(current_schema())`;

/**
 * Applies every migration the database lacks; safe when several instances start
 * at once. `list` is for tests that need a database at an older version.
 *
 * Everything runs on one connection under a session-level advisory lock, taken by
 * polling `pg_try_advisory_lock` rather than waiting in a statement: a waiter inside
 * a statement holds a snapshot, and CREATE INDEX CONCURRENTLY waits for every older
 * snapshot, so a blocked second instance would deadlock the first one's index build.
 * Consecutive SQL migrations commit in one transaction (a failure leaves none of
 * them); an index migration builds its indexes outside any transaction (see
 * `buildIndexes`), then records its version.
 */
export async function migrate(db: Db, list: ReadonlyArray<Migration> = migrations, table = 'schema_migrations'): Promise<number[]> {
  return db.session(async (conn) => {
    while (!(await conn.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`, [MIGRATION_LOCK]))[0]!.ok) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    try {
      // A migration may rewrite or index a large table: not bounded by the pool's statement_timeout.
      await conn.exec('SET statement_timeout = 0');
      await conn.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await conn.query<{ version: number }>(`SELECT version FROM ${table}`)).map((r) => r.version));
      const pending = list.filter((m) => !done.has(m.version));
      const applied: number[] = [];
      for (let i = 0; i < pending.length;) {
        const m = pending[i]!;
        if (!('sql' in m)) {
          if ('indexes' in m) await buildIndexes(conn, db.kind, m);
          else await repeatStep(conn, m);
          await conn.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
          applied.push(m.version);
          i++;
          continue;
        }
        const run: Array<typeof m> = [];
        while (i < pending.length && 'sql' in pending[i]!) run.push(pending[i++] as typeof m);
        await conn.exec('BEGIN');
        try {
          for (const s of run) {
            await conn.exec(s.sql);
            await conn.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [s.version, s.name]);
          }
          await conn.exec('COMMIT');
        } catch (error) {
          await conn.exec('ROLLBACK').catch(() => {});
          throw error;
        }
        applied.push(...run.map((s) => s.version));
      }
      return applied;
    } finally {
      await conn.exec('RESET statement_timeout').catch(() => {});
      await conn.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [MIGRATION_LOCK]).catch(() => {});
    }
  });
}

/** Runs a repeated step until it says it is done, each run a transaction of its own (autocommit). */
async function repeatStep(conn: Queryable, m: RepeatedStep) {
  let next: unknown = null;
  do {
    const [row] = await conn.query<{ next: unknown }>(m.repeat, [next]);
    next = row?.next ?? null;
  } while (next !== null);
}

/**
 * Builds an index migration's indexes without blocking writes: CREATE INDEX
 * CONCURRENTLY on PostgreSQL (outside a transaction; writes go on, the build
 * waits for them), a plain CREATE INDEX on the embedded database (one connection,
 * nothing to block). Idempotent when interrupted: a valid index of that name is
 * kept, an INVALID one (a concurrent build that died half way) is dropped and built again.
 */
async function buildIndexes(conn: Queryable, kind: Db['kind'], m: Extract<Migration, { indexes: unknown }>) {
  const concurrently = kind === 'postgres' ? ' CONCURRENTLY' : '';
  for (const ix of m.indexes) {
    const [existing] = await conn.query<{ valid: boolean }>('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [
      ix.name,
    ]);
    if (existing?.valid) continue;
    if (existing) await conn.exec(`DROP INDEX${concurrently} IF EXISTS ${ix.name}`);
    await conn.exec(
      `CREATE${ix.unique ? ' UNIQUE' : ''} INDEX${concurrently} ${ix.name} ON ${ix.on}${ix.where ? ` WHERE ${ix.where}` : ''}`,
    );
  }
  for (const name of m.drop ?? []) await conn.exec(`DROP INDEX${concurrently} IF EXISTS ${name}`);
}
