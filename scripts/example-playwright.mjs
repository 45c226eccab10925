#!/usr/bin/env node
// examples/playwright as a team runs it, outside this repository: the SDK and the fixtures package packed
// (npm pack, as they would be published), installed with @playwright/test into an empty folder with a copy
// of the example, then its four workers against `npm start` on a fresh embedded database.
//   node scripts/example-playwright.mjs [json report path]
// Needs a production build (NEXT_DIST_DIR, .next-e2e by default: npm test builds it first; npm start builds
// one when it is missing). Its exit code is Playwright's.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isFree } from './free-ports.mjs';

const root = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), 'example-playwright-'));
const report = process.argv[2];
const npm = (args, cwd) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

// 1. The two packages as npm would publish them (prepack builds each).
const pack = (dir) => path.join(work, JSON.parse(npm(['pack', '--json', '--pack-destination', work], path.join(root, dir)))[0].filename);
const tarballs = [pack('packages/sdk'), pack('packages/playwright')];

// 2. A copy of the example with only those and @playwright/test installed (the version this repository uses).
const project = path.join(work, 'project');
fs.cpSync(path.join(root, 'examples/playwright'), project, { recursive: true, filter: (src) => !src.includes('node_modules') });
const playwrightVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@playwright/test/package.json'), 'utf8')).version;
npm(
  ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', ...tarballs, `@playwright/test@${playwrightVersion}`],
  project,
);

// 3. npm start on a port and a data folder of its own, with a known key for the parent merchant (the demo merchant).
let port = 4000 + Math.floor(Math.random() * 1000);
while (!(await isFree(port))) port++;
const baseUrl = `http://127.0.0.1:${port}`;
const secretKey = `sk_test_Example${'0123456789abcdefghij'.repeat(2)}`;
const serverEnv = { ...process.env };
delete serverEnv.DATABASE_URL;
const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...serverEnv,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    DEMO_SECRET_KEY: secretKey,
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
    SESSION_SECRET: '',
    LOG_LEVEL: 'warn',
    NEXT_TELEMETRY_DISABLED: '1',
  },
});
const stopped = new Promise((resolve) => server.once('exit', resolve));
let status = 1;
try {
  for (const deadline = Date.now() + 300_000; ;) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (
      ready &&
      (await fetch(`${baseUrl}/login`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      break;
    if (Date.now() > deadline) throw new Error('npm start did not answer within 300 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  // 4. The example's own config: four workers, each with a sandbox of the demo merchant.
  const run = spawnSync(path.join(project, 'node_modules/.bin/playwright'), ['test', '--reporter=list,json'], {
    cwd: project,
    stdio: 'inherit',
    env: {
      ...process.env,
      MERCHANT_PAYMENTS_BASE_URL: baseUrl,
      MERCHANT_PAYMENTS_SECRET_KEY: secretKey,
      PLAYWRIGHT_JSON_OUTPUT_FILE: report ?? path.join(work, 'report.json'),
    },
  });
  status = run.status ?? 1;
} finally {
  server.kill('SIGTERM');
  await stopped;
  if (status === 0) fs.rmSync(work, { recursive: true, force: true });
}
process.exit(status);
