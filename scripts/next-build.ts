import { spawnSync } from 'node:child_process';
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
    const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: '' },
      encoding: 'utf8',
      stdio: opts.quiet ? 'pipe' : 'inherit',
      timeout: 280_000,
    });
    if (fs.readFileSync(tsconfig, 'utf8') !== before) fs.writeFileSync(tsconfig, before);
    if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
    return distDir;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
