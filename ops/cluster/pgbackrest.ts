import { execFile } from 'node:child_process';
import { STANZA, BINARIES, type Layout } from './layout';
import { runAsUser } from './processes';

/** What pgBackRest needs of a cluster (a LocalCluster is one): its layout and which node is the primary. */
export interface BackrestCluster {
  readonly layout: Pick<Layout, 'node'>;
  primary(): Promise<{ name: string }>;
}

/** Runs pgBackRest as the cluster's user with the named node's config; rejects with its output on failure. */
export function pgbackrest(cluster: BackrestCluster, nodeName: string, args: string[], timeoutMs = 300_000): Promise<string> {
  const node = cluster.layout.node(nodeName);
  const argv = [`--config=${node.pgbackrestConf}`, `--stanza=${STANZA}`, ...args];
  return runBackrest(argv, node.dir, timeoutMs);
}

export function runBackrest(argv: string[], cwd: string, timeoutMs = 300_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      BINARIES.pgbackrest,
      argv,
      { cwd, timeout: timeoutMs, env: { ...process.env, HOME: cwd }, ...(runAsUser() ?? {}) },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`pgbackrest ${argv.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
        else resolve(stdout + stderr);
      },
    );
  });
}

/** Creates the stanza from the primary and checks that WAL reaches the repository. */
export async function createStanza(cluster: BackrestCluster, primaryName: string) {
  await pgbackrest(cluster, primaryName, ['stanza-create']);
  await pgbackrest(cluster, primaryName, ['check']);
}

/** A backup taken from the current primary (production would take it from a standby: docs/operations.md). */
export async function backup(cluster: BackrestCluster, type: 'full' | 'diff' | 'incr'): Promise<string> {
  const primary = await cluster.primary();
  return pgbackrest(cluster, primary.name, ['backup', `--type=${type}`]);
}

/** `pgbackrest check` on the current primary: the archive works and the configuration agrees. */
export async function check(cluster: BackrestCluster): Promise<string> {
  const primary = await cluster.primary();
  return pgbackrest(cluster, primary.name, ['check']);
}

/** `pgbackrest info` as JSON (the backups in the repository and the WAL range). */
export async function info(cluster: BackrestCluster): Promise<unknown> {
  const primary = await cluster.primary();
  return JSON.parse(await pgbackrest(cluster, primary.name, ['info', '--output=json']));
}
