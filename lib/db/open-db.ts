import { CONSOLE_MIGRATIONS, CONSOLE_MIGRATIONS_TABLE } from './console-migrations';
import { migrate } from './migrate';
import { openPgliteDb } from './pglite-db';
import { openPostgresDb, type PoolerMode, type PoolLimits } from './postgres-db';
import type { Db } from './types';

export interface DbSettings {
  /** postgres://... for a server; otherwise embedded PGlite. */
  databaseUrl?: string;
  /** Embedded database folder; undefined keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  limits?: PoolLimits;
  /** The console-only store (lib/db/console-migrations.ts) instead of the payment schema. */
  schema?: 'payments' | 'console';
  /** `transaction`: databaseUrl is a transaction-mode pooler (postgres-db.ts). */
  pooler?: PoolerMode;
  /** A direct connection (not through the pooler) for the migrations: a long DDL is not cut by the pooler's query_timeout. */
  directUrl?: string;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDb(settings: DbSettings): Promise<Db> {
  const db = settings.databaseUrl
    ? openPostgresDb(settings.databaseUrl, settings.poolSize, settings.limits, settings.pooler)
    : await openPgliteDb(settings.dataDir);
  const migrator = settings.databaseUrl && settings.directUrl ? openPostgresDb(settings.directUrl, 1, settings.limits) : db;
  try {
    if (settings.schema === 'console') await migrate(migrator, CONSOLE_MIGRATIONS, CONSOLE_MIGRATIONS_TABLE);
    else await migrate(migrator);
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  } finally {
    if (migrator !== db) await migrator.close().catch(() => {});
  }
}
