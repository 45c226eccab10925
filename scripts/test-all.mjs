#!/usr/bin/env node
// npm test: every suite, in order, with one closing line of counts.
//   0. the lint and format check (npm run lint: ESLint with zero warnings, Prettier --check)
//   1. one production build of Next, shared by every suite below
//   2. vitest: unit and integration tests (PGlite always, PostgreSQL when DATABASE_URL is set)
//   3. Playwright: the console and the hosted checkout in real Chromium, against a fresh
//      production build (.next-e2e) on a fresh embedded database (see playwright.config.ts);
//      then again with the console and the API as two processes on two databases (E2E_SPLIT): the
//      API by npm start, the console by `next start` as a team deploying Next.js starts it;
//      then examples/playwright from the packed fixtures package, as a team installs it
//   4. stress, quick size: real server processes under load, kill -9, hostile input
//      (npm run test:stress is the full size; see docs/prove.md)
// Each step appends its counts; the run fails if any step fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePortBlock } from './free-ports.mjs';
import { useLocalPostgresIfPresent } from './local-postgres.mjs';

const bin = (name) => path.join('node_modules', '.bin', name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'test-all-'));
// Everything this run writes or listens on is its own, so two clones can test side by side:
// temporary folders under `tmp`, and a block of 101 ports (vitest's 100, then Playwright's server).
process.env.TEST_RUN_DIR ??= tmp;
process.env.TEST_PORT_BASE ??= String(await freePortBlock());
process.env.E2E_PORT ??= String(Number(process.env.TEST_PORT_BASE) + 100);
const totals = { passed: 0, failed: 0, skipped: 0 };
process.stdout.write(`npm test on Node ${process.version}\n`);
// The names of the failed tests, printed again at the very end: CI keeps only the tail of the output.
const failures = [];
let ok = true;

// Each step's wall time is printed after it, so a slower CI run shows which suite grew.
const started = Date.now();
function step(title, command, args, env = {}) {
  process.stdout.write(`\n=== ${title}\n`);
  const t0 = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  process.stdout.write(`=== ${title}: ${Math.round((Date.now() - t0) / 1000)} s\n`);
  if (result.status !== 0) ok = false;
  return result.status === 0;
}

// PostgreSQL variants run when DATABASE_URL is set or the local server answers.
useLocalPostgresIfPresent();

/** Runs vitest with `args` and adds its counts to the totals. */
function vitestStep(title, name, args, env) {
  const report = path.join(tmp, `${name}.json`);
  step(title, bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
  if (!fs.existsSync(report)) return void (totals.failed += 1);
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) failures.push(`${name}: ${path.relative(process.cwd(), file.name)} › ${t.fullName}`);
    if (!failed.length && file.status === 'failed')
      failures.push(`${name}: ${path.relative(process.cwd(), file.name)} (${String(file.message).split('\n')[0]})`);
  }
}

// 0. Lint and format: a finding fails the run like a failed test (fix it, or `npm run format`).
if (!step('lint and format (eslint, prettier --check)', 'npm', ['run', '--silent', 'lint'])) failures.push('lint: npm run lint');

// 1. One production build (.next-e2e) for every suite: vitest's suites that run Next as a process
//    (PROVE_NEXT_DIST_DIR, testing/next-build.ts) and Playwright's web servers only start it.
const built = step('build (next build, .next-e2e)', bin('next'), ['build'], {
  NEXT_DIST_DIR: '.next-e2e',
  NEXT_TELEMETRY_DISABLED: '1',
  DATABASE_URL: '',
});
process.env.PROVE_NEXT_DIST_DIR ??= '.next-e2e';

// 2. vitest
vitestStep('unit and integration tests (vitest)', 'vitest', []);

// 3. Playwright, twice: the console with the API in its own process (the default), then split: console
//    and API as two processes on two databases, the console (`next start`) reaching the API over HTTP
//    through the SDK (E2E_SPLIT, playwright.config.ts).

function playwrightStep(title, name, env, command = [bin('playwright'), 'test', '--reporter=list,json']) {
  const report = path.join(tmp, `${name}.json`);
  if (built) step(title, command[0], command.slice(1), { PLAYWRIGHT_JSON_OUTPUT_FILE: report, ...env });
  if (!fs.existsSync(report)) return void (totals.failed += 1);
  const { stats } = JSON.parse(fs.readFileSync(report, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) if (t.status === 'unexpected') failures.push(`${name}: ${spec.file}:${spec.line} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of JSON.parse(fs.readFileSync(report, 'utf8')).suites ?? []) walk(suite);
}

playwrightStep('end-to-end tests (Playwright, Chromium)', 'playwright', {});
playwrightStep('end-to-end tests, console and API split (Playwright, Chromium)', 'playwright-split', { E2E_SPLIT: '1' });
// examples/playwright as a team runs it: the SDK and the fixtures package packed and installed with
// @playwright/test outside this repository, four workers (a sandbox each) against npm start.
playwrightStep('the Playwright example (packed fixtures, four workers, npm start)', 'example-playwright', { NEXT_DIST_DIR: '.next-e2e' }, [
  process.execPath,
  'scripts/example-playwright.mjs',
  path.join(tmp, 'example-playwright.json'),
]);

// 4. stress, quick size
vitestStep('stress, quick size (vitest.stress.config.ts)', 'stress', ['--config', 'vitest.stress.config.ts'], { STRESS_SIZE: 'quick' });

if (failures.length) process.stdout.write(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
process.stdout.write(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''} in ${Math.round((Date.now() - started) / 1000)} s\n`,
);
process.exit(ok && totals.failed === 0 ? 0 : 1);
