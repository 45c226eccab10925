#!/usr/bin/env node
// The quick check on a second Node line: .ci/run runs npm test whole on the newest LTS line, then
// this on the oldest maintained one, 22 (README, "Node"). It asks what can differ between Node lines, not
// what the full run already proved:
//   1. vitest on the embedded database only, in the files that load every layer through Node's own
//      APIs (QUICK_FILES): crypto, http, streams, fetch, timers, the PGlite engine, child processes;
//   2. one `npm start` server (scripts/start.ts, tsx, Next's production build from npm test, a new
//      embedded database made from nothing) answering /readyz, a payment call and a console page,
//      then stopping cleanly on SIGTERM.
// Usage: node scripts/node-check.mjs   (needs the .next-e2e build npm test made, or builds it)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePortBlock } from './free-ports.mjs';

// The start below covers what tests/db/embedded-database and tests/server/app-server would add here
// (a cluster and the migrations from nothing, the process server), for a fraction of their time.
const QUICK_FILES = [
  'tests/architecture/layering.test.ts',
  'tests/api/payouts.test.ts',
  'tests/api/webhooks.test.ts',
  'tests/console/session.test.ts',
];
const DEMO_KEY = 'sk_test_NodeCheckDemoKey0123456789abcdefghijklmnop';
const started = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-'));
const base = await freePortBlock();
// The embedded database only: the PostgreSQL variants ran in npm test, and nothing in them depends on the Node line.
const env = { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', TEST_RUN_DIR: tmp, TEST_PORT_BASE: String(base) };
process.stdout.write(`quick check on Node ${process.version}\n`);

process.stdout.write(`\n=== vitest, embedded database (${QUICK_FILES.length} files)\n`);
const vitest = spawnSync(path.join('node_modules', '.bin', 'vitest'), ['run', ...QUICK_FILES], { stdio: 'inherit', env });
let ok = vitest.status === 0;

process.stdout.write('\n=== npm start\n');
ok = (await startAndAsk(base + 100)) && ok;

process.stdout.write(
  `\nquick check on Node ${process.version}: ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`,
);
process.exit(ok ? 0 : 1);

/** Starts npm start's server on a new embedded database; true when it answers and stops cleanly. */
async function startAndAsk(port) {
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(tmp, 'data'),
      DEMO_SECRET_KEY: DEMO_KEY,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || '.next-e2e',
      NEXT_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
    },
  });
  const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve(code ?? signal)));
  const check = (what, pass) => {
    process.stdout.write(`  ${pass ? 'ok' : 'FAILED'}: ${what}\n`);
    return pass;
  };
  try {
    // Ready: the database made and migrated, Next prepared (a build only if npm test did not make one).
    const deadline = Date.now() + 300_000;
    let ready = false;
    while (!ready && Date.now() < deadline && server.exitCode === null) {
      ready = await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 500));
    }
    if (!check(`/readyz answers 200 (${Math.round((Date.now() - started) / 1000)} s into the check)`, ready)) return false;
    const balance = await fetch(`${url}/v1/index.php`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'get_balance' }),
    });
    const body = await balance.json().catch(() => ({}));
    let pass = check(
      `get_balance with the demo key answers 200 with an integer balance`,
      balance.status === 200 && Number.isInteger(body.available),
    );
    const login = await fetch(`${url}/login`);
    pass = check('the console renders /login (200, HTML)', login.status === 200 && (await login.text()).includes('<form')) && pass;
    server.kill('SIGTERM');
    return check('the server stops on SIGTERM with exit code 0', (await exited) === 0) && pass;
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
