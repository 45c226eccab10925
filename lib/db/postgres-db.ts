import pg from 'pg';
import { INT8_OID, NUMERIC_OID, parseMoneyInt } from './int8';
import type { Db, Queryable } from './types';

/** A real PostgreSQL server through a connection pool; several app instances may share it. */
export function openPostgresDb(connectionString: string, poolSize = 10): Db {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID || oid === NUMERIC_OID) return parseMoneyInt;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({ connectionString, max: poolSize, types: types as pg.CustomTypesConfig });
  // An idle client that loses its server emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) =>
    (await client.query(sql, params as unknown[])).rows as T[];

  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => void (await pool.query(sql)),
    async transaction(fn) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const scoped: Queryable = {
          query: (sql, params) => run(client, sql, params),
          exec: async (sql) => void (await client.query(sql)),
        };
        const result = await fn(scoped);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
