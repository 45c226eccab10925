// npm run restore -- FILE: a backup (npm run backup) into an empty DATA_DIR (docs/backup.md).
import { restoreBackup } from '../lib/admin/backup';
import { runBackupCommand } from './backup-command';

const USAGE = `Usage: npm run restore -- FILE

Restores a backup made by npm run backup into DATA_DIR (default ./.data), which must be empty or
missing: a restore never overwrites a database. FILE is checked whole first (a file that is not a
backup, a truncated or a damaged one is refused, and nothing is written); the database is then
loaded, brought up to this version's schema, and opened once before it is moved into place.`;

runBackupCommand({
  usage: USAGE,
  withDatabaseUrl:
    'DATABASE_URL is set: restore PostgreSQL with its own tools (pgBackRest; see docs/operations.md). npm run restore fills an embedded DATA_DIR; unset DATABASE_URL to use it.',
  run: restore,
});

async function restore(file: string, dir: string) {
  const { header, applied, merchants } = await restoreBackup(file, dir);
  const upgraded = applied.length > 0 ? `, upgraded to schema version ${applied[applied.length - 1]}` : '';
  process.stdout.write(
    `Restored ${file} into ${dir}: the database as of ${header.taken_at} (schema version ${header.schema_version}${upgraded}), ${merchants} merchant${merchants === 1 ? '' : 's'}.\n` +
      'Start the server on it as usual (npm start).\n',
  );
}
