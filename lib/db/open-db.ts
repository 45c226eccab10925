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
}

/** Opens the configured database and brings its schema up to date. */
export async function openDb(settings: DbSettings): Promise<Db> {
  const db = settings.databaseUrl
    ? openPostgresDb(settings.databaseUrl, settings.poolSize, settings.limits)
    : await openPgliteDb(settings.dataDir);
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
