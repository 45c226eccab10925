import { CONSOLE_MIGRATIONS, CONSOLE_MIGRATIONS_TABLE } from './console-migrations';
import { migrate } from './migrate';
import { openPgliteDb } from './pglite-db';
import { openPostgresDb, type PoolLimits } from './postgres-db';
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
}

/** Opens the configured database and brings its schema up to date. */
export async function openDb(settings: DbSettings): Promise<Db> {
  const db = settings.databaseUrl
    ? openPostgresDb(settings.databaseUrl, settings.poolSize, settings.limits)
    : await openPgliteDb(settings.dataDir);
  try {
    if (settings.schema === 'console') await migrate(db, CONSOLE_MIGRATIONS, CONSOLE_MIGRATIONS_TABLE);
    else await migrate(db);
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
