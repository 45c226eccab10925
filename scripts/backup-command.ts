// The frame npm run backup and npm run restore share: one FILE argument, the embedded DATA_DIR only,
// and the exit codes (2 for a usage error, 1 for a refusal, each with its message, no stack).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError } from '../lib/admin/backup';
import { UsageError } from '../lib/admin/merchant-commands';
import { ConfigError, env } from '../lib/config/env';
import { DataDirLockedError } from '../lib/db/dir-lock';

export function runBackupCommand(opts: { usage: string; withDatabaseUrl: string; run: (file: string, dir: string) => Promise<void> }) {
  const main = async () => {
    const { positionals, values } = parseArgs({
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h', default: false } },
    });
    if (values.help) return void process.stdout.write(`${opts.usage}\n`);
    if (positionals.length !== 1) throw new UsageError('name one backup file');
    const file = path.resolve(positionals[0]!);
    const settings = env();
    if (settings.DATABASE_URL) throw new BackupError(opts.withDatabaseUrl);
    await opts.run(file, path.resolve(settings.DATA_DIR));
  };
  main().catch((error) => {
    const known =
      error instanceof UsageError || error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirLockedError;
    process.stderr.write(`${known ? error.message : (error?.stack ?? error)}\n${error instanceof UsageError ? `\n${opts.usage}\n` : ''}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
