// npm run backup -- FILE: a copy of the embedded database, as of one instant, into FILE (docs/backup.md).
import path from 'node:path';
import { ADMIN_BACKUP_PATH, readAdminAccess } from '../lib/admin/admin-endpoint';
import { BackupError, createBackup, hasEmbeddedDatabase, readBackup, writeFileAtomically } from '../lib/admin/backup';
import { errorBodySchema } from '../lib/contract';
import { DataDirLockedError } from '../lib/db/dir-lock';
import { openPgliteDb } from '../lib/db/pglite-db';
import { runBackupCommand } from './backup-command';

const USAGE = `Usage: npm run backup -- FILE

Copies the embedded database in DATA_DIR (default ./.data), with the secrets the server generated
beside it, into FILE: every transaction committed before one instant, none after. It works whether
or not a server runs: a running server holds the folder and takes the copy itself (asked from this
machine only, with the token it keeps there). FILE is replaced whole or not at all, mode 0600.
Restore with: npm run restore -- FILE (into an empty DATA_DIR).`;

runBackupCommand({
  usage: USAGE,
  withDatabaseUrl:
    "DATABASE_URL is set: back up PostgreSQL with its own tools (pgBackRest, or your provider's backups; see docs/operations.md). npm run backup copies the embedded database.",
  run: backUp,
});

async function backUp(file: string, dir: string) {
  if (!hasEmbeddedDatabase(dir)) throw new BackupError(`There is no embedded database in ${dir} (DATA_DIR): nothing to back up.`);
  const { bytes, via } = await take(dir);
  // The whole file is checked before it is written, as a restore will check it.
  const { header } = readBackup(bytes, 'The backup just taken');
  try {
    writeFileAtomically(file, bytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    const why = code === 'ENOENT' ? `its folder ${path.dirname(file)} does not exist` : (error as Error).message;
    throw new BackupError(`Could not write ${file}: ${why}. Nothing was written there.`);
  }
  process.stdout.write(
    `Backed up ${dir} to ${file}${via}: ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, schema version ${header.schema_version}, as of ${header.taken_at}.\n`,
  );
}

/** From the folder itself, or through the server that holds it. */
async function take(dir: string): Promise<{ bytes: Buffer; via: string }> {
  let db;
  try {
    db = await openPgliteDb(dir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const access = readAdminAccess(dir);
    if (!access) throw error;
    const res = await fetch(access.url + ADMIN_BACKUP_PATH, { method: 'POST', headers: { authorization: `Bearer ${access.token}` } }).catch(
      (cause) => {
        throw new BackupError(
          `The server holding ${dir} (process ${error.pid}) did not answer at ${access.url}: ${cause?.cause?.code ?? cause?.message}.`,
        );
      },
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) {
      const body = errorBodySchema.safeParse(safeJson(bytes.toString('utf8')));
      throw new BackupError(
        `The server holding ${dir} (process ${error.pid}) answered ${res.status}: ${body.success ? body.data.error.message : 'no error message'}`,
      );
    }
    return { bytes, via: ` (taken by the running server, process ${error.pid})` };
  }
  try {
    return { bytes: await createBackup(db, dir), via: '' };
  } finally {
    await db.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
