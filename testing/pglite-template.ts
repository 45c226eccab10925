import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '@/lib/db/migrate';
import { openDb } from '@/lib/db/open-db';
import { openPgliteDb } from '@/lib/db/pglite-db';
import type { Db } from '@/lib/db/types';
import { CONSOLE_DATA_DIR, DATA_DIR, DONE, seedConsoleDataDir, seedDataDir, TARBALL, TEMPLATE } from './pglite-template-dirs';

export { seedConsoleDataDir, seedDataDir } from './pglite-template-dirs';

/**
 * A new embedded database spends most of its first start creating the cluster (PGlite's initdb:
 * seconds of CPU), and the suites open hundreds. The global set-ups make one migrated, empty
 * database per run (makePgliteTemplate); tests start from a copy of it: in memory from its
 * tarball, on disk from its folder. Its name carries a hash of the migrations and PGlite's
 * version, so a changed schema never starts from an old copy. The migrations themselves are
 * still applied from nothing by their own tests (tests/db/embedded-database.test.ts), and a
 * console-only store by tests/server/console-runtime.test.ts.
 * The same cluster, copied before its migrations, gives the console-only store's template
 * (the split e2e run's console server), for the cost of a copy instead of a second initdb.
 */

/** Once per run, in the main process (global set-ups), before any worker starts. */
export async function makePgliteTemplate(): Promise<void> {
  if (fs.existsSync(DONE)) return;
  fs.rmSync(TEMPLATE, { recursive: true, force: true });
  fs.mkdirSync(TEMPLATE, { recursive: true });
  const cluster = path.join(TEMPLATE, 'cluster');
  await (await PGlite.create(cluster)).close();
  for (const [dir, schema] of [
    [DATA_DIR, 'payments'],
    [CONSOLE_DATA_DIR, 'console'],
  ] as const) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.cpSync(cluster, path.join(dir, 'pgdata'), { recursive: true });
    await (await openDb({ dataDir: dir, schema })).close();
    fs.rmSync(path.join(dir, 'app.lock'), { force: true });
  }
  fs.rmSync(cluster, { recursive: true, force: true });
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

/** A new temporary DATA_DIR for the payment schema, seeded from the template. */
export function freshDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  seedDataDir(dir);
  return dir;
}

/** A new temporary DATA_DIR for a console-only process, seeded from the console template. */
export function freshConsoleDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  seedConsoleDataDir(dir);
  return dir;
}
