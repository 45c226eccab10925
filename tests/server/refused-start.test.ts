// A start refused for its settings writes nothing: no migration, no demo merchant, no key printed.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { ROOT } from '../../testing/server-process';

const run = promisify(execFile);
const SEALING_KEY = 'dGVzdC1zZWFsaW5nLWtleS0wMTIzNDU2Nzg5YWJjZGU=';
const SESSION_SECRET = 'refused-start-session-secret-0123456789abcdef';

/** Runs a start script to its end (a refused start exits at once); `env` replaces the settings that matter. */
async function start(script: string, env: Record<string, string>) {
  const settings: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '34190',
    LOG_LEVEL: 'info',
    SESSION_SECRET: '',
    SECRETS_ENCRYPTION_KEY: '',
    ...env,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, script)], {
      cwd: ROOT,
      env: settings,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The tables of the schema the URL names (its search_path). */
async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
    );
    return rows.rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

describe.runIf(postgresUrl)('a start refused for its settings leaves the database untouched (postgres)', () => {
  it.each([
    // The console's cookie secret: npm start serves the console. Refused before the build, too.
    ['npm start without SESSION_SECRET', 'scripts/start.ts', { SECRETS_ENCRYPTION_KEY: SEALING_KEY }, /SESSION_SECRET must be set/],
    // The webhook sealing key: every instance must open the others' secrets.
    ['npm run start:api without SECRETS_ENCRYPTION_KEY', 'scripts/start-api.ts', { SESSION_SECRET }, /SECRETS_ENCRYPTION_KEY must be set/],
    [
      'npm run start:api behind a transaction pooler without DATABASE_DIRECT_URL',
      'scripts/start-api.ts',
      { SESSION_SECRET, SECRETS_ENCRYPTION_KEY: SEALING_KEY, DATABASE_POOLER: 'transaction' },
      /DATABASE_DIRECT_URL must be set/,
    ],
    [
      'npm start without either: both named at once',
      'scripts/start.ts',
      {},
      /SESSION_SECRET must be set[\s\S]*SECRETS_ENCRYPTION_KEY must be set/,
    ],
  ])('%s: exit 1 naming it, no table, no key printed', async (_name, script, env, message) => {
    const url = await createSchemaUrl();
    // An empty build folder: were the settings checked after the build, this start would build first.
    const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'refused-dist-'));
    const result = await start(script, { DATABASE_URL: url, NEXT_DIST_DIR: path.relative(ROOT, distDir), ...env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout + result.stderr).not.toMatch(/sk_test_/);
    expect(await tables(url)).toEqual([]);
    expect(fs.readdirSync(distDir)).toEqual([]);
  });

  it('starts once the setting is there, and then prints the demo key (the database was still empty)', async () => {
    const url = await createSchemaUrl();
    const refused = await start('scripts/start-api.ts', { DATABASE_URL: url });
    expect(refused.code).toBe(1);
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/start-api.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '34191',
        DATABASE_URL: url,
        SECRETS_ENCRYPTION_KEY: SEALING_KEY,
        DEMO_SECRET_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    try {
      for (const deadline = Date.now() + 45_000; !/ {4}sk_test_\w+\n\n$/.test(out) && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 100));
      // Once it listens, its last lines say, in words, where the API is and the demo key (shown only now).
      const last = out.trimEnd().split('\n').slice(-6);
      expect(out.indexOf('"listening"')).toBeGreaterThan(-1);
      expect(out.indexOf('"listening"')).toBeLessThan(out.indexOf('  Ready.'));
      expect(last[0]).toBe('  Payment API:  POST http://127.0.0.1:34191/v1/index.php');
      expect(last[2]).toMatch(/^ {2}Demo merchant "Demo Store" created with [\d,]+ IDR\.$/);
      expect(last[3]).toMatch(/^ {2}Its secret key \(shown only now; sign in to the console with it/);
      expect(last[5]).toMatch(/^ {4}sk_test_[0-9A-Za-z]{16,}$/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
