import { migrations } from './migrations';
import type { Db } from './types';

/** An arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 4_242_001;

/**
 * Applies every migration the database lacks; safe when several instances start
 * at once. `list` is for tests that need a database at an older version.
 */
export async function migrate(db: Db, list: typeof migrations = migrations, table = 'schema_migrations'): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // A migration may rewrite a large table: not bounded by the pool's statement_timeout.
    await tx.exec('SET LOCAL statement_timeout = 0');
    await tx.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await tx.query<{ version: number }>(`SELECT version FROM ${table}`)).map((r) => r.version),
    );
    const applied: number[] = [];
    for (const m of list) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
