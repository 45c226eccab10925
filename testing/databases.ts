import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from '@/lib/db/open-db';
import { openPgliteDb } from '@/lib/db/pglite-db';
import { openPostgresDb } from '@/lib/db/postgres-db';
import type { Db } from '@/lib/db/types';
import { openMigratedPglite } from './pglite-template';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** A new, migrated, empty database: in-memory PGlite, or a fresh schema on the server. */
  open(): Promise<Db>;
  /** The same without migrations (migration tests). */
  openEmpty(): Promise<Db>;
}

/** The PostgreSQL server the tests use, when there is one (CI sets DATABASE_URL). */
export const postgresUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

/** A fresh schema on the test server; dropped by `dropSchemas` after the run. */
export async function createSchemaUrl(baseUrl = postgresUrl!): Promise<string> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  created.push(schema);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

const created: string[] = [];

export async function dropSchemas(baseUrl = postgresUrl): Promise<void> {
  if (!baseUrl || created.length === 0) return;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (const schema of created.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export const pgliteBackend: Backend = { name: 'pglite', open: openMigratedPglite, openEmpty: () => openPgliteDb(undefined) };

export const postgresBackend: Backend = {
  name: 'postgres',
  open: async () => openDb({ databaseUrl: await createSchemaUrl(), poolSize: 20 }),
  openEmpty: async () => openPostgresDb(await createSchemaUrl(), 5),
};

/** PGlite always; PostgreSQL as well when a server is configured. */
export const backends: Backend[] = postgresUrl ? [pgliteBackend, postgresBackend] : [pgliteBackend];

if (!postgresUrl) {
  process.stderr.write('[tests] DATABASE_URL is not set: PostgreSQL variants are not run on this machine.\n');
}
