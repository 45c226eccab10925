import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { z } from 'zod';
import { lockDataDir } from '../db/dir-lock';
import { migrate } from '../db/migrate';
import { migrations } from '../db/migrations';
import { openPgliteDb } from '../db/pglite-db';
import type { Db } from '../db/types';
import { SEALING_KEY_FILE, SESSION_SECRET_FILE } from '../config/secret-file';

/**
 * Backups of the embedded database (`npm run backup` / `npm run restore`; docs/backup.md).
 *
 * A backup is one file: a magic line, a one-line JSON header, then the payload: PGlite's dump of the
 * data folder (`pgdata`, a gzipped tarball, taken at one instant between transactions: Db.dumpDataDir)
 * followed by the secret files the server generated beside it (the key that seals webhook secrets,
 * the console's session secret), which the database is useless without. The header gives the
 * payload's length and SHA-256, so a file that is not a backup, a truncated one and a damaged one are
 * each told apart and refused before anything is written.
 */
export const BACKUP_MAGIC = 'MERCHANT-PAYMENTS-BACKUP\n';
export const BACKUP_FORMAT = 1;
const PGDATA_SECTION = 'pgdata.tar.gz';
/** DATA_DIR's files that go with the database, when the server generated them (a setting replaces each). */
export const DATA_DIR_SECRET_FILES = [SEALING_KEY_FILE, SESSION_SECRET_FILE] as const;
/** Where a restore loads the database before moving it into place (inside DATA_DIR, so one file system). */
const STAGING = '.restoring';
const MAX_HEADER_BYTES = 64 * 1024;
const LATEST_SCHEMA = Math.max(...migrations.map((m) => m.version));

/** A refusal or a failure with a message for the operator (the CLI prints it, without a stack). */
export class BackupError extends Error {}

const headerSchema = z.object({
  format: z.number().int().min(1),
  taken_at: z.string(),
  schema_version: z.number().int().min(0),
  postgres: z.string(),
  payload_bytes: z.number().int().min(0),
  payload_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  sections: z.array(z.object({ name: z.string(), bytes: z.number().int().min(0) })),
});
export type BackupHeader = z.infer<typeof headerSchema>;

export interface Backup {
  header: BackupHeader;
  /** The gzipped tarball of `pgdata`. */
  pgdata: Buffer;
  files: { name: string; bytes: Buffer }[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** True when `dataDir` holds an embedded database (a folder PGlite initialised). */
export const hasEmbeddedDatabase = (dataDir: string) => fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));

/**
 * A backup of the open embedded database and its DATA_DIR secrets, as the bytes of a backup file.
 * Writes are held back only for the dump itself (PGlite copies the folder into memory); the
 * compression runs after, off the event loop.
 */
export async function createBackup(db: Db, dataDir: string): Promise<Buffer> {
  if (!db.dumpDataDir)
    throw new BackupError(
      "Only the embedded database is backed up here: back up PostgreSQL with its own tools (pg_dump, or your provider's backups).",
    );
  const [info] = await db.query<{ version: number; postgres: string }>(
    `SELECT (SELECT COALESCE(max(version), 0) FROM schema_migrations)::int AS version, current_setting('server_version') AS postgres`,
  );
  const tar = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
  const takenAt = new Date().toISOString();
  // Large output chunks: zlib hands each chunk back through the event loop, which a busy server keeps waiting (its
  // default 16 KiB chunks made a 5 MiB backup take a minute under load). Level 3: most of the size of 6 at half its time.
  const chunkSize = Math.min(Math.max(tar.length, 64 * 1024), 64 * 1024 * 1024);
  const sections = [{ name: PGDATA_SECTION, bytes: await gzip(tar, { level: 3, chunkSize }) }];
  for (const name of DATA_DIR_SECRET_FILES) {
    try {
      sections.push({ name, bytes: fs.readFileSync(path.join(dataDir, name)) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const payload = Buffer.concat(sections.map((s) => s.bytes));
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    taken_at: takenAt,
    schema_version: info!.version,
    postgres: info!.postgres,
    payload_bytes: payload.length,
    payload_sha256: sha256(payload),
    sections: sections.map((s) => ({ name: s.name, bytes: s.bytes.length })),
  };
  return Buffer.concat([Buffer.from(BACKUP_MAGIC + JSON.stringify(header) + '\n', 'utf8'), payload]);
}

/**
 * Reads a backup's magic line and header from the start of a file (`head`, at most MAX_HEADER_BYTES +
 * the magic) and checks the file's length (`size`) against it. Throws BackupError: not a backup,
 * truncated, damaged, or from a newer version.
 */
function readHeader(head: Buffer, size: number, label: string): { header: BackupHeader; payloadAt: number } {
  const magic = Buffer.from(BACKUP_MAGIC, 'utf8');
  if (size === 0) throw new BackupError(`${label} is empty: it is not a backup.`);
  if (!head.subarray(0, magic.length).equals(magic)) {
    // The first bytes of the magic line and nothing more: a backup cut short, not another file.
    if (size < magic.length && magic.subarray(0, size).equals(head.subarray(0, size))) {
      throw new BackupError(`${label} is truncated: it ends within its first line (${size} bytes). Take the backup again.`);
    }
    throw new BackupError(`${label} is not a backup of this service (it does not begin with "${BACKUP_MAGIC.trim()}").`);
  }
  const end = head.indexOf(0x0a, magic.length);
  if (end < 0) {
    if (size - magic.length > MAX_HEADER_BYTES) throw new BackupError(`${label} is damaged: its header has no end.`);
    throw new BackupError(`${label} is truncated: it ends within its header (${size} bytes). Take the backup again.`);
  }
  let header: BackupHeader;
  try {
    const raw = JSON.parse(head.subarray(magic.length, end).toString('utf8'));
    if (typeof raw?.format === 'number' && raw.format > BACKUP_FORMAT) {
      throw new BackupError(
        `${label} is a backup of format ${raw.format}, newer than this version reads (${BACKUP_FORMAT}): restore it with the version that made it.`,
      );
    }
    header = headerSchema.parse(raw);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${label} is damaged: its header does not parse.`);
  }
  const payloadAt = end + 1;
  const held = size - payloadAt;
  if (held < header.payload_bytes) {
    throw new BackupError(
      `${label} is truncated: it holds ${held} of the ${header.payload_bytes} bytes its header announces. Take the backup again.`,
    );
  }
  if (held > header.payload_bytes)
    throw new BackupError(`${label} is damaged: it has ${held - header.payload_bytes} bytes more than its header announces.`);
  const names = header.sections.map((s) => s.name);
  if (
    header.sections.reduce((sum, s) => sum + s.bytes, 0) !== header.payload_bytes ||
    names[0] !== PGDATA_SECTION ||
    names.slice(1).some((n) => !(DATA_DIR_SECRET_FILES as readonly string[]).includes(n)) ||
    new Set(names).size !== names.length
  ) {
    throw new BackupError(`${label} is damaged: its header's sections do not add up.`);
  }
  if (header.schema_version > LATEST_SCHEMA) {
    throw new BackupError(
      `${label} was taken by a newer version of this service (schema version ${header.schema_version}; this one knows up to ${LATEST_SCHEMA}): restore it with that version or a later one.`,
    );
  }
  return { header, payloadAt };
}

/** Checks a whole backup held in memory (the server's answer, or a file read) and splits it. Throws BackupError. */
export function readBackup(bytes: Buffer, label: string): Backup {
  const { header, payloadAt } = readHeader(bytes.subarray(0, BACKUP_MAGIC.length + MAX_HEADER_BYTES), bytes.length, label);
  const payload = bytes.subarray(payloadAt);
  if (sha256(payload) !== header.payload_sha256) {
    throw new BackupError(`${label} is damaged: its checksum does not match its content (the file changed after it was written).`);
  }
  let at = 0;
  const sections = header.sections.map((s) => {
    const part = { name: s.name, bytes: payload.subarray(at, at + s.bytes) };
    at += s.bytes;
    return part;
  });
  return { header, pgdata: sections[0]!.bytes, files: sections.slice(1) };
}

/** Reads and checks a backup file: its header from its first bytes, before the whole file is read. Throws BackupError. */
export function readBackupFile(file: string): Backup {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupError(`${file} does not exist.`);
    if (code === 'EACCES') throw new BackupError(`${file} cannot be read (permission denied).`);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new BackupError(`${file} is not a file.`);
    const head = Buffer.alloc(Math.min(stat.size, BACKUP_MAGIC.length + MAX_HEADER_BYTES));
    fs.readSync(fd, head, 0, head.length, 0);
    readHeader(head, stat.size, file);
    return readBackup(fs.readFileSync(fd), file);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `bytes` to `file` so that `file` is either its old self or the whole new content, never a
 * part: a temporary file beside it (mode 0600: a backup holds sealed secrets, key hashes and the key
 * that unseals them), flushed to disk, then renamed over it.
 */
export function writeFileAtomically(file: string, bytes: Buffer): void {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.partial`);
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  // The rename itself, on disk (not every platform can open a folder: best effort).
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    /* not supported here */
  }
}

export interface RestoreResult {
  header: BackupHeader;
  /** Migrations applied after the load: a backup of an older version is brought up to this one. */
  applied: number[];
  merchants: number;
}

/**
 * Restores a backup file into an empty (or missing) DATA_DIR. Refuses, with nothing written, a file
 * that is not a whole backup (readBackupFile) and a folder that holds anything. Then, holding the
 * folder's lock (no server can start on it meanwhile), loads the database into DATA_DIR/.restoring,
 * migrates it and reads it, writes the secret files, and moves `pgdata` into place last: a server
 * never finds a half-loaded database. A failure removes what the restore wrote.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreResult> {
  const dir = path.resolve(dataDir);
  const backup = readBackupFile(file);
  const existed = fs.existsSync(dir);
  if (existed) {
    if (!fs.statSync(dir).isDirectory()) throw new BackupError(`DATA_DIR ${dir} is not a folder. Nothing was written.`);
    const entries = fs.readdirSync(dir);
    if (entries.length > 0) {
      const shown = entries.slice(0, 5).join(', ') + (entries.length > 5 ? `, … (${entries.length} entries)` : '');
      throw new BackupError(
        `DATA_DIR ${dir} is not empty (it holds ${shown}). A restore goes into an empty folder only, so it never overwrites ` +
          'or mixes with a database: point DATA_DIR at a new folder, or move this one aside. Nothing was written.',
      );
    }
  }
  const lock = lockDataDir(dir);
  const staging = path.join(dir, STAGING);
  const written: string[] = [];
  let done = false;
  try {
    const tar = await gunzip(backup.pgdata, { chunkSize: 4 * 1024 * 1024 }).catch(() => {
      throw new BackupError(`${file} is damaged: its database does not decompress.`);
    });
    let db: Db;
    try {
      db = await openPgliteDb(staging, new Blob([tar]));
    } catch (error) {
      throw new BackupError(`The database in ${file} (PostgreSQL ${backup.header.postgres}) did not open: ${(error as Error).message}`);
    }
    let applied: number[];
    let merchants: number;
    try {
      applied = await migrate(db);
      merchants = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchants'))[0]!.n;
    } finally {
      await db.close();
    }
    for (const f of backup.files) {
      fs.writeFileSync(path.join(dir, f.name), f.bytes, { mode: 0o600, flag: 'wx' });
      written.push(f.name);
    }
    fs.renameSync(path.join(staging, 'pgdata'), path.join(dir, 'pgdata'));
    fs.rmSync(staging, { recursive: true, force: true });
    done = true;
    return { header: backup.header, applied, merchants };
  } finally {
    if (!done) {
      fs.rmSync(staging, { recursive: true, force: true });
      for (const name of written) fs.rmSync(path.join(dir, name), { force: true });
    }
    lock.release();
    // The folder this restore created, empty again (never recursive: anything else in it stays).
    if (!done && !existed) {
      try {
        fs.rmdirSync(dir);
      } catch {
        /* not empty: left as it is */
      }
    }
  }
}
