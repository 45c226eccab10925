// When DATABASE_URL is unset, looks for the conventional local PostgreSQL server
// (this project's machines and CI have it) and sets DATABASE_URL to it, so that
// `npm test` and `npm run bench` include their PostgreSQL variants with no set-up.
import { spawnSync } from 'node:child_process';

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export function useLocalPostgresIfPresent() {
  if (process.env.DATABASE_URL) return;
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const c=new (require('pg').Client)(${JSON.stringify(LOCAL_POSTGRES_URL)});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))`,
    ],
    { timeout: 5000 },
  );
  if (probe.status === 0) {
    process.env.DATABASE_URL = LOCAL_POSTGRES_URL;
    process.stdout.write(`PostgreSQL found at ${LOCAL_POSTGRES_URL}: its variants run too.\n`);
  } else {
    process.stdout.write('No PostgreSQL (set DATABASE_URL=postgres://...): only the embedded-database variants run.\n');
  }
}

// As a command: `node scripts/local-postgres.mjs <command> [args]` runs the command with it.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href && process.argv.length > 2) {
  useLocalPostgresIfPresent();
  const [command, ...args] = process.argv.slice(2);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env, shell: false });
  process.exit(result.status ?? 1);
}
