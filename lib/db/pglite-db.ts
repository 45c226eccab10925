import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './dir-lock';
import { INT8_OID, NUMERIC_OID, parseMoneyInt } from './int8';
import type { Db, Queryable } from './types';

/**
 * Embedded PostgreSQL (WASM) in a folder, or in memory when `dir` is undefined. `from`: a tarball
 * of a data folder (PGlite's dumpDataDir) to start from instead of a new cluster; creating a
 * cluster (initdb) is most of the cost of a new database, which tests open by the hundred.
 */
export async function openPgliteDb(dir: string | undefined, from?: Blob): Promise<Db> {
  const lock = dir ? lockDataDir(path.resolve(dir)) : undefined;
  try {
    const pg = await PGlite.create(dir ? path.resolve(dir, 'pgdata') : undefined, {
      parsers: { [INT8_OID]: parseMoneyInt, [NUMERIC_OID]: parseMoneyInt },
      ...(from ? { loadDataDir: from } : {}),
    });
    const query = async <T>(client: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
      (await client.query<T>(sql, params as unknown[])).rows;
    return {
      kind: 'pglite',
      query: (sql, params) => query(pg, sql, params),
      exec: async (sql) => void (await pg.exec(sql)),
      transaction: (fn) =>
        pg.transaction((tx) => {
          const scoped: Queryable = {
            query: (sql, params) => query(tx, sql, params),
            exec: async (sql) => void (await tx.exec(sql)),
          };
          return fn(scoped);
        }),
      // One connection: every statement already runs on it.
      session: (fn) => fn({ query: (sql, params) => query(pg, sql, params), exec: async (sql) => void (await pg.exec(sql)) }),
      // PGlite's dumpDataDir waits only for the statement running (its query lock): asked for inside a transaction, it
      // copies the transaction half done. Under the transaction lock, which every transaction and every statement
      // outside one takes, it runs between two transactions.
      dumpDataDir: () => pg._runExclusiveTransaction(() => pg.dumpDataDir('none')),
      // PGlite runs one query at a time on its one connection; its queue is not visible.
      poolStats: () => ({ total: 1, idle: 0, waiting: 0 }),
      async close() {
        try {
          await pg.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
