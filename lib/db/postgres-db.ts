import pg from 'pg';
import { INT8_OID, NUMERIC_OID, parseMoneyInt } from './int8';
import { preparedName } from './prepared';
import { isConnectionSpent, type Db, type Queryable } from './types';

/** Time limits, so that a stuck request or client cannot starve the others. */
export interface PoolLimits {
  /** Longest wait for a pooled connection; past it the request fails (503), the others go on. */
  connectTimeoutMs?: number;
  /** Longest any one statement may run on the server. */
  statementTimeoutMs?: number;
  /** A transaction left idle this long (a client that died mid-request) is ended by the server. */
  idleInTransactionTimeoutMs?: number;
  /** Run the hot statements as named prepared statements (lib/db/prepared.ts); off behind a transaction-mode pooler. */
  preparedStatements?: boolean;
}

/**
 * `transaction`: DATABASE_URL is a pooler in transaction mode (PgBouncer's `pool_mode = transaction`),
 * where consecutive transactions of one client may run on different server connections. Nothing
 * of a session may then be relied on: the limits are not startup parameters (PgBouncer refuses
 * those) but `SET LOCAL` in each transaction's first round trip, and everything else this layer
 * does already lives inside one transaction (advisory locks are `_xact_`, statements are unnamed,
 * no LISTEN). See README, Deployment.
 */
export type PoolerMode = 'none' | 'transaction';

/** A real PostgreSQL server through a connection pool; several app instances may share it. */
export function openPostgresDb(connectionString: string, poolSize = 10, limits: PoolLimits = {}, pooler: PoolerMode = 'none'): Db {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID || oid === NUMERIC_OID) return parseMoneyInt;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const statementTimeoutMs = Math.round(limits.statementTimeoutMs ?? 15_000);
  const idleInTransactionMs = Math.round(limits.idleInTransactionTimeoutMs ?? 30_000);
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: types as pg.CustomTypesConfig,
    connectionTimeoutMillis: limits.connectTimeoutMs ?? 5_000,
    // A node lost mid-query may never answer nor close (no RST from a dead machine): the client gives up a
    // little after the server's own statement limit, so no request hangs past its timeout.
    query_timeout: statementTimeoutMs + 5_000,
    keepAlive: true,
    ...(pooler === 'transaction'
      ? {}
      : { statement_timeout: statementTimeoutMs, idle_in_transaction_session_timeout: idleInTransactionMs }),
  });
  // Behind a transaction pooler the session's limits are the transaction's (integers, so inlined safely).
  const transactionLimits =
    pooler === 'transaction'
      ? `; SET LOCAL statement_timeout = ${statementTimeoutMs}; SET LOCAL idle_in_transaction_session_timeout = ${idleInTransactionMs}`
      : '';
  // An idle client that loses its server emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  // So may a client in the instant between the pool handing it over and its user listening (seen under
  // pg_terminate_backend with load): every client gets a listener of its own for its whole life. The
  // query in flight still fails on its own, and a transaction marks its client broken (below).
  pool.on('connect', (client) => client.on('error', () => {}));
  // PgBouncer 1.18 in transaction mode cannot carry a named statement from one server connection to the next.
  const named = pooler !== 'transaction' && (limits.preparedStatements ?? true);
  const run = async <T>(client: pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const name = named ? preparedName(sql) : undefined;
    const result = name
      ? await client.query({ name, text: sql, values: params as unknown[] })
      : await client.query(sql, params as unknown[]);
    return result.rows as T[];
  };

  const scoped = (client: pg.PoolClient): Queryable => ({
    query: (sql, params) => run(client, sql, params),
    exec: async (sql) => void (await client.query(sql)),
  });
  /**
   * A pooled connection for `fn`. A connection the server drops while checked out (restart, failover,
   * pg_terminate_backend) emits 'error' on the client: unheard, it would end the process. The query in
   * flight fails on its own; the client is then thrown away instead of going back to the pool, as it is
   * when `fn` calls `markBroken` or fails with an error that spends the connection (isConnectionSpent:
   * also a node that is no longer the primary, which still answers but refuses writes).
   */
  async function checkedOut<T>(fn: (client: pg.PoolClient, markBroken: () => void) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    const markBroken = () => {
      broken = true;
    };
    client.on('error', markBroken);
    try {
      return await fn(client, markBroken);
    } catch (error) {
      if (isConnectionSpent(error)) markBroken();
      throw error;
    } finally {
      client.off('error', markBroken);
      client.release(broken);
    }
  }

  return {
    kind: 'postgres',
    bareStatementsTimed: pooler !== 'transaction',
    query: (sql, params) => checkedOut((client) => run(client, sql, params)),
    exec: (sql) => checkedOut(async (client) => void (await client.query(sql))),
    transaction: (fn, opts = {}) =>
      checkedOut(async (client, markBroken) => {
        // One round trip: BEGIN, the limits behind a pooler, and the transaction's lock bound (an integer, so inlined safely).
        const lockTimeout =
          opts.lockTimeoutMs === undefined ? '' : `; SET LOCAL lock_timeout = '${Math.max(1, Math.round(opts.lockTimeoutMs))}ms'`;
        try {
          await client.query(`BEGIN${transactionLimits}${lockTimeout}`);
          const result = await fn(scoped(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(markBroken);
          throw error;
        }
      }),
    session: (fn) =>
      checkedOut(async (client, markBroken) => {
        try {
          return await fn(scoped(client));
        } catch (error) {
          // A statement that failed may leave session state (a lock, a setting) behind: do not reuse the connection.
          markBroken();
          throw error;
        }
      }),
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
