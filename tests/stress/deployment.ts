import { openDb } from '@/lib/db/open-db';
import type { Db } from '@/lib/db/types';
import { callApi } from '../helpers/api-server';
import { createSchemaUrl, dropSchemas, postgresUrl } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';
import { ensureNextBuild } from '../../testing/next-build';
import { DEMO_KEY, ServerProcess, type ServerKind, type ServerOptions } from '../../testing/server-process';

export type StressBackend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL when the tests have a server (as everywhere in tests/). */
export const stressBackends: StressBackend[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

/** Server processes on one database: one embedded folder, or one fresh PostgreSQL schema. */
export class Deployment {
  servers: ServerProcess[] = [];
  private constructor(
    readonly backend: StressBackend,
    readonly databaseUrl?: string,
    private readonly inspectUrl?: string,
  ) {}

  /**
   * `urlParams` go into DATABASE_URL (an application_name, so a test can find its own connections).
   * `at`: a database of the caller's instead of a fresh schema, e.g. behind a pooler (then the test
   * process inspects it over `directUrl`). `launch`: how the servers are started (ServerOptions).
   */
  static async create(
    backend: StressBackend,
    kinds: ServerKind[],
    env: Record<string, string> = {},
    urlParams: Record<string, string> = {},
    at?: { databaseUrl: string; directUrl: string },
    launch: ServerOptions['launch'] = 'node',
  ) {
    if (kinds.length > 1 && backend === 'pglite') throw new Error('an embedded database serves one process');
    let databaseUrl: string | undefined = at?.databaseUrl;
    if (backend === 'postgres' && !at) {
      const url = new URL(await createSchemaUrl());
      for (const [k, v] of Object.entries(urlParams)) url.searchParams.set(k, v);
      databaseUrl = url.toString();
    }
    const d = new Deployment(backend, databaseUrl, at?.directUrl);
    const distDir = kinds.includes('next') ? await ensureNextBuild() : undefined;
    d.servers = kinds.map((kind) => new ServerProcess({ kind, databaseUrl: d.databaseUrl, distDir, env, launch }));
    // One after the other: the first start migrates and seeds, the next ones find it done.
    for (const s of d.servers) await s.start();
    return d;
  }

  /** The demo merchant's id and available balance, through the API. */
  async balance(server = this.servers[0]!) {
    const res = await callApi(server.url, DEMO_KEY, { action: 'get_balance' });
    if (res.status !== 200) throw new Error(`get_balance answered ${res.status}: ${res.text}`);
    return { merchantId: res.body.merchant.id as string, available: res.body.available as number };
  }

  /**
   * Opens the database from the test process. The embedded one belongs to its
   * server, so that server is stopped first (cleanly: that is part of the check).
   */
  async inspect<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    if (this.backend === 'pglite') {
      const clean = await this.servers[0]!.stop();
      if (!clean) throw new Error('the embedded server did not stop cleanly on SIGTERM');
    }
    const url = this.inspectUrl ?? this.databaseUrl;
    const db = await openDb(url ? { databaseUrl: url, poolSize: 2 } : { dataDir: this.servers[0]!.dataDir });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  async close() {
    await Promise.all(this.servers.map((s) => s.stop()));
    this.servers.forEach((s) => s.cleanUp());
    if (this.databaseUrl) await dropSchemas();
  }
}

export { ledgerCheck };
