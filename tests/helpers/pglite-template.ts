import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '@/lib/db/migrate';
import { openDb } from '@/lib/db/open-db';
import { openPgliteDb } from '@/lib/db/pglite-db';
import type { Db } from '@/lib/db/types';

/**
 * A new embedded database spends most of its first start creating the cluster (PGlite's initdb:
 * seconds of CPU), and the suites open hundreds. The global set-ups make one migrated, empty
 * database per run (makePgliteTemplate); tests start from a copy of it: in memory from its
 * tarball, on disk from its folder. Its name carries a hash of the migrations and PGlite's
 * version, so a changed schema never starts from an old copy. The migrations themselves are
 * still applied from nothing by their own tests (tests/db/embedded-database.test.ts).
 */
const ROOT = path.resolve(__dirname, '../..');

function schemaHash(): string {
  const hash = crypto.createHash('sha256');
  const dbDir = path.join(ROOT, 'lib/db');
  const files = [...fs.readdirSync(path.join(dbDir, 'migrations')).map((f) => `migrations/${f}`), 'migrate.ts', 'console-migrations.ts'];
  for (const f of files.sort()) hash.update(f).update(fs.readFileSync(path.join(dbDir, f)));
  hash.update(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE = path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), `pglite-template-${schemaHash()}`);
const TARBALL = path.join(TEMPLATE, 'pgdata.tar');
/** A DATA_DIR holding only the database (`pgdata`): no lock, no keys, no merchant. */
const DATA_DIR = path.join(TEMPLATE, 'data');
const DONE = path.join(TEMPLATE, 'done');

/** Once per run, in the main process (global set-ups), before any worker starts. */
export async function makePgliteTemplate(): Promise<void> {
  if (fs.existsSync(DONE)) return;
  fs.rmSync(TEMPLATE, { recursive: true, force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  await (await openDb({ dataDir: DATA_DIR })).close();
  fs.rmSync(path.join(DATA_DIR, 'app.lock'), { force: true });
  const pg = await PGlite.create(path.join(DATA_DIR, 'pgdata'));
  const tarball = await pg.dumpDataDir('none');
  await pg.close();
  fs.writeFileSync(TARBALL, Buffer.from(await tarball.arrayBuffer()));
  fs.writeFileSync(DONE, '');
}

let tarball: Blob | undefined;

/** A new, migrated, empty in-memory database: from the template when the run made one. */
export async function openMigratedPglite(): Promise<Db> {
  if (!fs.existsSync(DONE)) return openDb({});
  tarball ??= new Blob([fs.readFileSync(TARBALL)]);
  const db = await openPgliteDb(undefined, tarball);
  await migrate(db); // nothing to apply: checks that the copy is current
  return db;
}

/** Fills a new, empty DATA_DIR with the template's database, when the run made one. */
export function seedDataDir(dir: string): void {
  if (fs.existsSync(DONE)) fs.cpSync(path.join(DATA_DIR, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
}

/** A new temporary DATA_DIR for the payment schema, seeded from the template. */
export function freshDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  seedDataDir(dir);
  return dir;
}
