import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresUrl } from '../../testing/databases';
import { freePort } from '../../testing/ports';

/** Debian's pgbouncer (`.ci/run` installs it when missing). */
export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
export const hasPgbouncer = Boolean(postgresUrl) && fs.existsSync(PGBOUNCER);

export interface Pgbouncer {
  /** postgres://…@127.0.0.1:<port>/<database>: through the pooler. */
  url: string;
  /** The same database on the server itself: what a test inspects with, and DATABASE_DIRECT_URL. */
  directUrl: string;
  /** The pooler's own log (connections, errors such as a refused startup parameter). */
  log(): string;
  close(): Promise<void>;
}

/**
 * A fresh database on the test server and a PgBouncer of this test's own in front of it, in
 * transaction mode (consecutive transactions of a client may use different server
 * connections), from a temporary config: never the machine's service. `serverPool` is
 * PgBouncer's default_pool_size: the server connections shared by every client.
 */
export async function startPgbouncer(opts: { serverPool?: number } = {}): Promise<Pgbouncer> {
  const server = new URL(postgresUrl!);
  const database = `pgb_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  // Run as root, pgbouncer switches to the postgres user (-u): it must read and write here.
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  const logfile = path.join(dir, 'pgbouncer.log');
  fs.writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${decodeURIComponent(server.username) || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${opts.serverPool ?? 20}`,
      'max_client_conn = 1000',
      `logfile = ${logfile}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const args = [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), config];
  const child: ChildProcess = spawn(PGBOUNCER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  process.once('exit', () => child.kill('SIGKILL'));
  await waitForPort(port, child, () => output + readLog(logfile));
  const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  const direct = new URL(postgresUrl!);
  direct.pathname = `/${database}`;
  return {
    url,
    directUrl: direct.toString(),
    log: () => readLog(logfile),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT'); // immediate shutdown
        await exited;
      }
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await client.end();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const readLog = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

async function waitForPort(port: number, child: ChildProcess, output: () => string) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`pgbouncer did not listen on ${port}:\n${output()}`);
}
