// npm run restore -- FILE: a backup (npm run backup) into an empty DATA_DIR (docs/backup.md).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreBackup } from '../lib/admin/backup';
import { UsageError } from '../lib/admin/merchant-commands';
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';

const USAGE = `Usage: npm run restore -- FILE

Restores a backup made by npm run backup into DATA_DIR (default ./.data), which must be empty or
missing: a restore never overwrites a database. FILE is checked whole first (a file that is not a
backup, a truncated or a damaged one is refused, and nothing is written); the database is then
loaded, brought up to this version's schema, and opened once before it is moved into place.`;

async function main() {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  if (positionals.length !== 1) throw new UsageError('name one backup file');
  const file = path.resolve(positionals[0]!);
  const settings = env();
  if (settings.DATABASE_URL) {
    throw new BackupError('DATABASE_URL is set: restore PostgreSQL with its own tools (pg_restore; see docs/operations.md). npm run restore fills an embedded DATA_DIR; unset DATABASE_URL to use it.');
  }
  const dir = path.resolve(settings.DATA_DIR);
  const { header, applied, merchants } = await restoreBackup(file, dir);
  const upgraded = applied.length > 0 ? `, upgraded to schema version ${applied[applied.length - 1]}` : '';
  process.stdout.write(
    `Restored ${file} into ${dir}: the database as of ${header.taken_at} (schema version ${header.schema_version}${upgraded}), ${merchants} merchant${merchants === 1 ? '' : 's'}.\n` +
      'Start the server on it as usual (npm start).\n',
  );
}

main().catch((error) => {
  const known = error instanceof UsageError || error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirLockedError;
  process.stderr.write(`${known ? error.message : error?.stack ?? error}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
