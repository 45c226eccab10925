import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PG_BIN_DIR, STANZA } from './layout';
import type { LocalCluster } from './local-cluster';
import { pgbackrest } from './pgbackrest';
import { chownTree, runAsUser } from './processes';
import { probe } from './sql';

export interface RestoredServer {
  databaseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

function pgCtl(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(PG_BIN_DIR, 'pg_ctl'),
      args,
      { cwd, timeout: 300_000, env: { ...process.env, HOME: cwd }, ...(runAsUser() ?? {}) },
      (error, stdout, stderr) =>
        error ? reject(new Error(`pg_ctl ${args[0]} failed: ${error.message}\n${stdout}${stderr}`)) : resolve(stdout + stderr),
    );
  });
}

/**
 * Restores the cluster's repository as of `target` (a timestamp with its time zone) into a fresh
 * data folder under `dir`, and starts it as a single PostgreSQL server on `port`: pgBackRest picks
 * the newest backup before the target and replays WAL up to it (commits at or before it kept, later
 * ones not), then the server is promoted. It never archives into the original's repository.
 */
export async function restoreToTime(cluster: LocalCluster, opts: { dir: string; port: number; target: string }): Promise<RestoredServer> {
  const dataDir = path.join(opts.dir, 'data');
  const socketDir = path.join(opts.dir, 'run');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(socketDir, { recursive: true });
  chownTree(opts.dir);
  const primary = await cluster.primary();
  await pgbackrest(cluster, primary.name, [
    'restore',
    `--pg1-path=${dataDir}`,
    '--type=time',
    `--target=${opts.target}`,
    '--target-action=promote',
    // The restored server must not push its own WAL into the original's archive.
    '--archive-mode=off',
  ]);
  // The files came from a Patroni node: its port, sockets and hba paths are the original's. Ours win on the command line.
  const settings = {
    port: opts.port,
    listen_addresses: '127.0.0.1',
    unix_socket_directories: socketDir,
    hba_file: path.join(dataDir, 'pg_hba.conf'),
    ident_file: path.join(dataDir, 'pg_ident.conf'),
    archive_mode: 'off',
    // Patroni named the original's synchronous standby here: a lone server would wait for it on every commit.
    synchronous_standby_names: "''",
    cluster_name: `${STANZA}-restored`,
  };
  const o = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  await pgCtl(['start', '-D', dataDir, '-w', '-t', '300', '-l', path.join(opts.dir, 'postgres.log'), '-o', o], opts.dir);
  const databaseUrl = `postgres://postgres@127.0.0.1:${opts.port}/postgres`;
  await waitPromoted(databaseUrl, 120_000);
  return {
    databaseUrl,
    dataDir,
    stop: () => pgCtl(['stop', '-D', dataDir, '-m', 'fast', '-w'], opts.dir).then(() => {}),
  };
}

/** Recovery over: the server has reached the target and left recovery (promoted). */
async function waitPromoted(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (
    !(await probe<{ ro: boolean }>(url, 'SELECT pg_is_in_recovery() AS ro').then(
      (rows) => rows[0]?.ro === false,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error(`the restored server did not leave recovery within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
