/** What the payment core needs from a database: queries, and transactions that run them. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * False behind a transaction-mode pooler, where the statement time limit is set in each transaction
   * (postgres-db.ts): a write that is its own statement, outside BEGIN, would run without it.
   */
  readonly bareStatementsTimed?: boolean;
  /**
   * Runs `fn` in one transaction: COMMIT when it resolves, ROLLBACK when it throws.
   * `lockTimeoutMs` bounds every lock wait in it (PostgreSQL; set with BEGIN, in the
   * same round trip). The embedded database runs one transaction at a time.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: { lockTimeoutMs?: number }): Promise<T>;
  /**
   * Runs `fn` on one connection outside any transaction (each statement commits on its own):
   * for steps PostgreSQL refuses in a transaction, such as CREATE INDEX CONCURRENTLY, under a
   * session-level advisory lock.
   */
  session<T>(fn: (conn: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The embedded database only: its data folder as one tarball (PGlite's dumpDataDir, uncompressed),
   * taken while no transaction is open and no statement runs, so it holds every transaction committed
   * before it and none after (lib/admin/backup.ts). It waits for the transaction in progress: never
   * await it inside one.
   */
  dumpDataDir?(): Promise<Blob>;
  /** Connections in use and requests waiting for one (metrics); the embedded database has one connection. */
  poolStats(): { total: number; idle: number; waiting: number };
}

/** PostgreSQL error codes the core reacts to. */
export const PG_LOCK_NOT_AVAILABLE = '55P03';

export function pgErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The database cannot be reached, dropped the connection, or is not the primary: a failure of
 * the dependency, not of the request, so a 503 the client retries with the same idempotency key.
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down or not
 * accepting connections, as during a failover), 53300 (too many connections), 25006 (a
 * read-only transaction: a demoted primary, or a standby, still answering), 57014 (a statement
 * past statement_timeout), 25P03 (a transaction idle past its limit), and node-postgres' own
 * connection errors (no SQLSTATE). A COMMIT that fails this way has an unknown outcome: the
 * idempotency key settles it, since the retry finds the stored answer or runs once.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code) return code.startsWith('08') || UNAVAILABLE_CODES.has(code);
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '25006',
  '57014',
  '25P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
]);
// node-postgres' messages for a connection that ended, never opened, or went silent (query_timeout).
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|Cannot use a pool after calling end|Query read timeout/i;

/**
 * The connection itself is no use any more: the server ended it, or it is on a node that is no longer
 * the primary (25006). Such a pooled connection is dropped, never reused. A statement past its timeout
 * or a refused connection leaves a healthy connection, or none.
 */
export function isConnectionSpent(error: unknown): boolean {
  const code = pgErrorCode(error);
  return isDatabaseUnavailable(error) && code !== '57014' && code !== '53300';
}
