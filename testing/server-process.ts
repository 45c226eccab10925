import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_PATH } from './api-path';
import { freshConsoleDataDir, freshDataDir } from './pglite-template';
import { freePort } from './ports';

/**
 * standalone: `npm run start:api`; next: `npm start` (the API ahead of Next, the console
 * in Next); floor: the benchmark's bare node:http server (bench/floor-server.ts).
 */
export type ServerKind = 'standalone' | 'next' | 'floor';

const ENTRY: Record<ServerKind, string> = { standalone: 'scripts/start-api.ts', next: 'scripts/start.ts', floor: 'bench/floor-server.ts' };
/** The npm script that starts each kind, as the README says. */
const NPM_SCRIPT: Partial<Record<ServerKind, string>> = { standalone: 'start:api', next: 'start' };

/** Fixed demo key for spawned servers: the servers seed their demo merchant with it. */
export const DEMO_KEY = 'sk_test_proveProveProve0123456789abcdefABCDEF';

export const ROOT = path.resolve(__dirname, '..');
/** Every spawned server's stdout and stderr land here: the redaction checks scan it. */
export const SERVER_LOG_DIR = process.env.SERVER_LOG_DIR ?? path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), 'prove-server-logs');

export interface ServerOptions {
  kind: ServerKind;
  /** DATABASE_URL, or an embedded DATA_DIR (a temp folder when neither is given). */
  databaseUrl?: string;
  dataDir?: string;
  /** Next build folder (kind 'next'). */
  distDir?: string;
  env?: Record<string, string>;
  /** Extra node flags (a CPU profile: --cpu-prof, which NODE_OPTIONS may not carry). */
  nodeArgs?: string[];
  /**
   * 'npm': `npm start` / `npm run start:api`, in a process group of its own, as a process manager
   * runs it; its signals go to the whole group (npm, and every process below it). Default 'node':
   * the start script in one node process.
   */
  launch?: 'node' | 'npm';
}

const live = new Set<ServerProcess>();
process.once('exit', () => live.forEach((s) => s.kill('SIGKILL')));

/**
 * A real server process (`npm run start:api`'s script, or `next start`) that a
 * test can start, kill -9, restart on the same port and database, and measure.
 */
export class ServerProcess {
  readonly dataDir?: string;
  port = 0;
  child?: ChildProcess;
  output = '';
  starts = 0;
  private logFile = '';

  constructor(readonly opts: ServerOptions) {
    if (opts.databaseUrl) return;
    // A console-only server (the API elsewhere) keeps another store: a copy of its own template.
    this.dataDir = opts.dataDir ?? (opts.env?.PAYMENT_API_BASE_URL ? freshConsoleDataDir('prove-data') : freshDataDir('prove-data'));
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  get pid() {
    return this.child?.pid;
  }

  async start(timeoutMs = 120_000): Promise<this> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(timeoutMs);
      } catch (error) {
        // Another test process took the port between our probe and the bind: a first start may move.
        const lost = this.starts === 1 && /EADDRINUSE/.test(this.output);
        if (!lost || attempt === 3) throw error;
        this.port = 0;
        this.starts = 0;
        this.output = '';
      }
    }
  }

  private async startOnce(timeoutMs: number): Promise<this> {
    if (!this.port) this.port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DEMO_SECRET_KEY: DEMO_KEY,
      LOG_LEVEL: 'info',
      // Needed by the console with DATABASE_URL; a fixed test value.
      SESSION_SECRET: 'prove-session-secret-0123456789abcdefghijklmnop',
      // Needed with DATABASE_URL; every instance of a test shares it.
      SECRETS_ENCRYPTION_KEY: 'dGVzdC1zZWFsaW5nLWtleS0wMTIzNDU2Nzg5YWJjZGU=',
      ...(this.opts.databaseUrl ? { DATABASE_URL: this.opts.databaseUrl } : { DATABASE_URL: '', DATA_DIR: this.dataDir }),
      ...(this.opts.distDir ? { NEXT_DIST_DIR: this.opts.distDir } : {}),
      ...this.opts.env,
    };
    const child = this.opts.launch === 'npm' ? this.spawnNpm(env) : this.spawnNode(env);
    this.child = child;
    live.add(this);
    child.once('exit', () => {
      // npm gone, a process it started may not be: nothing of the group outlives the test.
      if (this.opts.launch !== 'npm' || !this.groupAlive()) live.delete(this);
    });
    fs.mkdirSync(SERVER_LOG_DIR, { recursive: true });
    this.logFile = path.join(SERVER_LOG_DIR, `${this.opts.kind}-${child.pid}.log`);
    const capture = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      fs.appendFileSync(this.logFile, chunk);
    };
    child.stdout!.on('data', capture);
    child.stderr!.on('data', capture);
    this.starts++;
    await this.waitUntilAnswering(timeoutMs);
    return this;
  }

  private spawnNode(env: NodeJS.ProcessEnv) {
    const args = [...(this.opts.nodeArgs ?? []), '--import', 'tsx', path.join(ROOT, ENTRY[this.opts.kind])];
    return spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  private spawnNpm(env: NodeJS.ProcessEnv) {
    const script = NPM_SCRIPT[this.opts.kind];
    if (!script || this.opts.nodeArgs) throw new Error(`no npm script starts a ${this.opts.kind} server with node flags`);
    // npm's own script runs under the node that runs this test.
    const npm = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, process.env.npm_execpath] : ['npm'];
    return spawn(npm[0]!, [...npm.slice(1), 'run', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  }

  /** Ready when the API answers: a GET gets its 405 before authentication, so the probe never counts as a failed key. */
  private async waitUntilAnswering(timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    const child = this.child!;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.opts.kind} server exited during start-up:\n${this.output.slice(-3000)}`);
      }
      try {
        const res = await fetch(this.url + API_PATH, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        // A 405 from a server that beat this one to the port is not this one being ready.
        if (res.status === 405 && !/EADDRINUSE/.test(this.output)) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.opts.kind} server did not answer within ${timeoutMs} ms:\n${this.output.slice(-3000)}`);
  }

  /** kill -9: no shutdown code runs, as in a power cut. */
  async kill9(): Promise<void> {
    await this.signal('SIGKILL', 10_000);
  }

  /** SIGTERM and wait; SIGKILL if it does not exit in time. Returns whether it exited by itself. */
  async stop(timeoutMs = 15_000): Promise<boolean> {
    const clean = await this.signal('SIGTERM', timeoutMs).then(
      () => true,
      () => false,
    );
    if (!clean) await this.kill9();
    return clean;
  }

  private signal(sig: NodeJS.Signals, timeoutMs: number): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      // npm exited before what it started: the rest of its group gets the signal too.
      if (this.opts.launch === 'npm') this.kill(sig);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${sig} did not end pid ${child.pid}`)), timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.kill(sig);
    });
  }

  /** Sends a signal as a process manager does: to the process, or (launched by npm) to its whole group. */
  kill(sig: NodeJS.Signals) {
    const child = this.child;
    if (!child?.pid) return;
    if (this.opts.launch !== 'npm') return void child.kill(sig);
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* the group is gone */
    }
  }

  /** Whether a process of the group npm led is still running (launch 'npm'). */
  groupAlive(): boolean {
    try {
      process.kill(-this.child!.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resident memory in MiB, from /proc (Linux). */
  rssMiB(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  }

  /** Removes the embedded database folder (after stop). */
  cleanUp() {
    if (this.dataDir && !this.opts.dataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
