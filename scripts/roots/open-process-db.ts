import type { Env } from '../../lib/config/env';
import { openDb } from '../../lib/db/open-db';

/** A database of this process with the pool limits of its settings: the payment schema, or the console's own store. */
export function openProcessDb(settings: Env, databaseUrl: string | undefined, schema?: 'console') {
  return openDb({
    databaseUrl,
    dataDir: settings.DATA_DIR,
    poolSize: settings.DATABASE_POOL_SIZE,
    pooler: settings.DATABASE_POOLER,
    // The direct URL is the payment database's: only used when that is the database opened.
    ...(settings.DATABASE_DIRECT_URL && databaseUrl === settings.DATABASE_URL ? { directUrl: settings.DATABASE_DIRECT_URL } : {}),
    limits: {
      connectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    ...(schema ? { schema } : {}),
  });
}
