import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where this run's prepared embedded databases are (pglite-template.ts makes them), and copies of
 * them for a new DATA_DIR. Only node's own modules here: playwright.config.ts seeds its servers'
 * folders with these without loading PGlite.
 */
const ROOT = path.resolve(__dirname, '..');

function schemaHash(): string {
  const hash = crypto.createHash('sha256');
  const dbDir = path.join(ROOT, 'lib/db');
  const files = [...fs.readdirSync(path.join(dbDir, 'migrations')).map((f) => `migrations/${f}`), 'migrate.ts', 'console-migrations.ts'];
  for (const f of files.sort()) hash.update(f).update(fs.readFileSync(path.join(dbDir, f)));
  hash.update(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

export const TEMPLATE = path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), `pglite-template-${schemaHash()}`);
export const TARBALL = path.join(TEMPLATE, 'pgdata.tar');
/** A DATA_DIR holding only the migrated payment database (`pgdata`): no lock, no keys, no merchant. */
export const DATA_DIR = path.join(TEMPLATE, 'data');
/** A DATA_DIR holding only a console-only store (lib/db/console-migrations.ts), empty. */
export const CONSOLE_DATA_DIR = path.join(TEMPLATE, 'console-data');
export const DONE = path.join(TEMPLATE, 'done');

/** Fills a new, empty DATA_DIR with the template's payment database, when the run made one. */
export function seedDataDir(dir: string): void {
  if (fs.existsSync(DONE)) fs.cpSync(path.join(DATA_DIR, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
}

/** Fills a new, empty DATA_DIR with the template's console-only store, when the run made one. */
export function seedConsoleDataDir(dir: string): void {
  // A template of an older run of this branch may lack it: then the store starts from nothing.
  if (fs.existsSync(DONE) && fs.existsSync(path.join(CONSOLE_DATA_DIR, 'pgdata')))
    fs.cpSync(path.join(CONSOLE_DATA_DIR, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
}
