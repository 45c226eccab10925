import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** What a build is made of: a build newer than all of them is current. */
const SOURCES = [
  'app',
  'lib',
  'console',
  'public',
  'instrumentation.ts',
  'next.config.js',
  'package.json',
  'package-lock.json',
  'proxy.ts',
  // Bundled by instrumentation.ts, which composes the console with them under `next start`.
  'scripts/roots/console-in-next.ts',
  'scripts/roots/console-side.ts',
  'scripts/roots/open-process-db.ts',
];

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) visit(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  SOURCES.forEach((s) => visit(path.join(ROOT, s)));
  return newest;
}

function isFresh(distDir: string): boolean {
  const id = path.join(ROOT, distDir, 'BUILD_ID');
  return fs.existsSync(id) && fs.statSync(id).mtimeMs > newestSourceMtime();
}

/**
 * Builds the Next app into `distDir` unless a build newer than every source is
 * there (`npm start` then starts in a couple of seconds). A lock folder keeps
 * parallel processes from building at once; the tsconfig.json that `next build`
 * rewrites for a new distDir is put back.
 */
export async function ensureNextBuild(distDir: string, opts: { quiet?: boolean } = {}): Promise<string> {
  const lock = path.join(ROOT, `${distDir}.lock`);
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      // A lock older than the longest build is left by a killed run.
      const st = fs.statSync(lock, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (isFresh(distDir)) return distDir;
    const tsconfig = path.join(ROOT, 'tsconfig.json');
    const before = fs.readFileSync(tsconfig, 'utf8');
    const firstBuild = !fs.existsSync(path.join(ROOT, distDir, 'BUILD_ID'));
    const result = await runNextBuild(
      distDir,
      opts.quiet ? undefined : firstBuild ? 'first start only' : 'a source changed since the last build',
    );
    if (fs.readFileSync(tsconfig, 'utf8') !== before) fs.writeFileSync(tsconfig, before);
    if (result.status !== 0) throw new Error(`next build failed:\n${result.output}`);
    return distDir;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** A line at least this often while Next is silent, so a terminal or a CI log shows the build is alive. */
const HEARTBEAT_MS = 15_000;
const BUILD_TIMEOUT_MS = 280_000;

/**
 * `next build`, its output kept (for the error) and, unless quiet, passed through indented under a
 * heading that says why the start waits, with the elapsed seconds whenever Next says nothing for a while.
 */
function runNextBuild(distDir: string, why: string | undefined): Promise<{ status: number | null; output: string }> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const say = (line: string) => why && process.stdout.write(`${line}\n`);
  say(`\nBuilding the app (${why}, about 2 minutes)…`);
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: ROOT,
    env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let lastSaid = Date.now();
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    const lines = (partial + text).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) say(`  ${line}`);
    lastSaid = Date.now();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const heartbeat = setInterval(() => {
    if (Date.now() - lastSaid < HEARTBEAT_MS) return;
    say(`  … still building (${seconds()} s)`);
    lastSaid = Date.now();
  }, 1000);
  const timeout = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
  const stopTimers = () => {
    clearInterval(heartbeat);
    clearTimeout(timeout);
  };
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      stopTimers();
      reject(error);
    });
    child.once('close', (status) => {
      stopTimers();
      if (partial.trim()) say(`  ${partial}`);
      say(status === 0 ? `Built in ${seconds()} s.\n` : `The build failed after ${seconds()} s.`);
      resolve({ status, output });
    });
  });
}
