import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { seedConsoleDataDir, seedDataDir } from './testing/pglite-template-dirs';

/**
 * End-to-end tests in real Chromium against the real app (next start) on a fresh
 * embedded database, served by npm start's server (scripts/start.ts), which builds .next-e2e when
 * a source changed since its last build (npm test builds it first, in a step of its own).
 */
const PORT = Number(process.env.E2E_PORT ?? 3150);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;
export const E2E_DEMO_KEY = 'sk_test_E2eDemoKey0123456789abcdefghijklmnopqrstuv';

/**
 * E2E_SPLIT=1: the console and the payment API as two processes on two databases, the console
 * reaching the API over HTTP through the SDK (PAYMENT_API_BASE_URL). The console is started as a team
 * deploying Next.js starts it: `next start`, configured from the environment alone (instrumentation.ts).
 * The API process is a whole `npm start`: the hosted checkout page belongs to the API's side, and
 * checkout links point at it. It starts first (Playwright starts its servers in order) and builds
 * .next-e2e when no current build is there. Its port is the last of vitest's block (vitest has finished when Playwright runs).
 */
export const E2E_SPLIT = process.env.E2E_SPLIT === '1';
const API_PORT = Number(process.env.E2E_API_PORT ?? (process.env.TEST_PORT_BASE ? Number(process.env.TEST_PORT_BASE) + 99 : PORT + 50));
/** Where the tests call the API directly (and where checkout links point). */
export const E2E_API_URL = E2E_SPLIT ? `http://127.0.0.1:${API_PORT}` : E2E_BASE_URL;

// The config is loaded by the runner and by every worker: make the data folder once,
// a new one of this run's own (another run on the machine keeps its own). In npm test it starts as
// a copy of the run's migrated, empty template (vitest's global set-up made it): a new cluster
// costs seconds of CPU per server (testing/pglite-template.ts); without one, from nothing.
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), 'console-e2e-'));
  seedDataDir(process.env.E2E_DATA_DIR);
}
// Split: E2E_DATA_DIR is the API's (merchants are created there); the console keeps its own store.
if (E2E_SPLIT && !process.env.E2E_CONSOLE_DATA_DIR) {
  process.env.E2E_CONSOLE_DATA_DIR = fs.mkdtempSync(path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), 'console-only-e2e-'));
  seedConsoleDataDir(process.env.E2E_CONSOLE_DATA_DIR);
}

/**
 * Split, with a PostgreSQL server at hand (DATABASE_URL, as in npm test): the API process runs on PostgreSQL, in a
 * schema of this run's own, so that the specs crossing the API run on both databases (in process: the embedded one).
 * Made once by the runner (psql, synchronously: the config is not async) and handed to the workers in the environment.
 */
function apiDatabaseUrl(): string | undefined {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!E2E_SPLIT || !base) return undefined;
  if (!process.env.E2E_API_DATABASE_URL) {
    const schema = `e2e_${randomBytes(6).toString('hex')}`;
    execFileSync('psql', [base, '-q', '-c', `CREATE SCHEMA ${schema}`], { stdio: 'ignore' });
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema}`);
    process.env.E2E_API_DATABASE_URL = url.toString();
  }
  return process.env.E2E_API_DATABASE_URL;
}
export const E2E_API_DATABASE_URL = apiDatabaseUrl();
/** Where the merchant CLI finds the API's data: its PostgreSQL schema, or its data folder. */
export const E2E_API_DATA_ENV = E2E_API_DATABASE_URL
  ? { DATABASE_URL: E2E_API_DATABASE_URL }
  : { DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' };

const chromium = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE ?? '/usr/bin/chromium';

/**
 * The split run is there for the console-to-API path (the SDK over HTTP), so it runs the specs that
 * cross it in each way: sign-in and a session ended by the API, reads and pages, every kind of write
 * with its idempotency key and retry, refusals, approvals, refunds, keys, webhooks, the streamed export,
 * its own checks (split.spec.ts), the books (statements, returns, the merchant's zone) and the sandboxes. With PostgreSQL at
 * hand the API process runs on it, so these specs run on both databases. Layout, axe, keyboard and the other views run once, in process:
 * a page's markup, styles and focus order are the same wherever its data comes from.
 */
const SPLIT_SPECS = [
  'split',
  'session',
  'keys',
  'balance',
  'payouts',
  'payout-views',
  'payout-batches',
  'approvals',
  'refunds',
  'restricted-keys',
  'webhooks',
  'checkout',
  'reports',
  'payout-returns',
  'time-zone',
  'logs',
  'refunds-list',
  'sandboxes',
];
const ALL_SPECS = fs
  .readdirSync(path.join(__dirname, 'tests/e2e'))
  .filter((f) => f.endsWith('.spec.ts'))
  .map((f) => f.slice(0, -'.spec.ts'.length));
const RUN = E2E_SPLIT ? SPLIT_SPECS : ALL_SPECS.filter((name) => name !== 'split');
const files = (names: string[]) => names.map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: 'tests/e2e',
  // One worker: with two, the two cores served two browsers and the server, every test took about
  // twice as long and the longest ones ran past their timeouts (tried 2026-11-26).
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 12_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    browserName: 'chromium',
    launchOptions: {
      executablePath: fs.existsSync(chromium) ? chromium : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  testMatch: files(RUN),
  globalTeardown: './tests/e2e/global-teardown.ts',
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: E2E_SPLIT
    ? [
        server(
          API_PORT,
          process.env.E2E_DATA_DIR!,
          // On PostgreSQL every instance must share these, so a start there requires them (start-checks.ts).
          E2E_API_DATABASE_URL
            ? {
                PAYMENT_API_BASE_URL: '',
                SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
                SESSION_SECRET: randomBytes(32).toString('base64url'),
              }
            : { PAYMENT_API_BASE_URL: '' },
          E2E_API_DATABASE_URL,
        ),
        nextStart(PORT, process.env.E2E_CONSOLE_DATA_DIR!, { PAYMENT_API_BASE_URL: E2E_API_URL }),
      ]
    : server(PORT, process.env.E2E_DATA_DIR!, { PAYMENT_API_BASE_URL: '' }),
});

/** npm start's server on `port`, on a fresh embedded database in `dataDir` or on `databaseUrl` (see the top of this file). */
function server(port: number, dataDir: string, env: Record<string, string>, databaseUrl?: string) {
  return {
    // Playwright passes its own environment on: DATABASE_URL is removed so the app runs on the fresh embedded database,
    // or set to the run's own schema. npm start's server (the API ahead of Next); it builds .next-e2e first unless a current build is there.
    command: databaseUrl
      ? `env DATABASE_URL='${databaseUrl}' node --import tsx scripts/start.ts`
      : `env -u DATABASE_URL node --import tsx scripts/start.ts`,
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_SECRET_KEY: E2E_DEMO_KEY,
      SETTLEMENT_DELAY_SECONDS: '1',
      NEXT_DIST_DIR: '.next-e2e',
      SESSION_SECRET: '',
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
      ...env,
    },
  };
}

/**
 * The console alone, as Next.js is deployed: `next start` on the build npm start made, its store in
 * `dataDir`, the payment API at PAYMENT_API_BASE_URL. Next's own server; no start script of ours.
 */
function nextStart(port: number, dataDir: string, env: Record<string, string>) {
  return {
    ...server(port, dataDir, env),
    command: `env -u DATABASE_URL node node_modules/next/dist/bin/next start --port ${port} --hostname 127.0.0.1`,
  };
}
