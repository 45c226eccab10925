// The local replicated deployment (ops/cluster): `npm run cluster` prints its JSON line and stops
// every process it started on SIGTERM; a kill -9 of the primary gives a new primary behind HAProxy
// with every acknowledged row present, and WAL archiving goes on from the new primary. The failover drill under load is tests/stress/failover.stress.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterBinariesMissing, freePortBlock } from '@/ops/cluster/layout';
import { LocalCluster } from '@/ops/cluster/local-cluster';
import { check } from '@/ops/cluster/pgbackrest';
import { ROOT } from '../helpers/server-process';
import { recordFigures } from './figures';

const missing = clusterBinariesMissing();

/** Processes whose command line names `dir`: etcd, Patroni, the postmasters, HAProxy of that cluster. */
function processesUnder(dir: string): string[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      return cmd.includes(dir) && !cmd.includes('scripts/cluster.ts') ? [`${entry} ${cmd}`] : [];
    } catch {
      return [];
    }
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

describe.skipIf(missing.length > 0)('local replicated cluster (Patroni, etcd, HAProxy)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-'));
  fs.chmodSync(tmp, 0o755);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('npm run cluster prints one JSON line, takes writes, and on SIGTERM stops every process it started', async () => {
    const dir = path.join(tmp, 'cli');
    const basePort = await freePortBlock();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts', '--dir', dir, '--base-port', String(basePort)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`cluster exited (${code}) before its JSON line:\n${stderr}`)));
    });
    const printed = JSON.parse(line) as { database_url: string; nodes: { name: string; api: string; data_dir: string }[] };
    expect(printed.database_url).toBe(`postgres://postgres@127.0.0.1:${basePort + 2}/postgres`);
    expect(printed.nodes.map((n) => n.name)).toEqual(['node1', 'node2', 'node3']);
    for (const n of printed.nodes) {
      expect(n.data_dir.startsWith(dir)).toBe(true);
      expect((await fetch(n.api + '/health')).status).toBe(200);
    }
    const [row] = await query<{ ro: boolean }>(printed.database_url, 'SELECT pg_is_in_recovery() AS ro');
    expect(row!.ro).toBe(false);
    // etcd, three Patroni, three postmasters (and their children), HAProxy.
    const before = processesUnder(dir);
    expect(before.filter((p) => /\/etcd /.test(p))).toHaveLength(1);
    expect(before.filter((p) => /patroni /.test(p))).toHaveLength(3);
    expect(before.filter((p) => /bin\/postgres -D/.test(p))).toHaveLength(3);
    expect(before.filter((p) => /haproxy /.test(p))).toHaveLength(1);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(processesUnder(dir)).toEqual([]);
    expect(stderr).toContain('cluster stopped');
  });

  it('a kill -9 of the primary gives a new primary behind HAProxy, with the acknowledged row present, archiving WAL', async () => {
    const cluster = await LocalCluster.start({ dir: path.join(tmp, 'failover'), basePort: await freePortBlock(), archive: true });
    try {
      const old = await cluster.primary();
      await query(cluster.databaseUrl, 'CREATE TABLE acked (id int PRIMARY KEY, at timestamptz DEFAULT now())');
      // Acknowledged once the synchronous standby has it (synchronous_commit on).
      await query(cluster.databaseUrl, 'INSERT INTO acked (id) VALUES (1)');

      const killedAt = Date.now();
      await cluster.kill(old.name);
      // Through HAProxy only: the first write that succeeds is on the new primary.
      let writtenAt = 0;
      while (!writtenAt) {
        if (Date.now() - killedAt > 90_000) throw new Error(`no write acknowledged 90 s after the kill\n${cluster.logTail()}`);
        await query(cluster.databaseUrl, 'INSERT INTO acked (id) VALUES (2)').then(
          () => (writtenAt = Date.now()),
          () => new Promise((r) => setTimeout(r, 200)),
        );
      }
      const now = await cluster.primary();
      expect(now.name).not.toBe(old.name);
      const rows = await query<{ id: number }>(cluster.databaseUrl, 'SELECT id FROM acked ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual([1, 2]);
      // The new primary archives WAL into the same repository (on its new timeline): pgbackrest check from it.
      await check(cluster);
      recordFigures('cluster failover (kill -9 of the primary, no load)', { 'kill to first acknowledged write (ms)': writtenAt - killedAt });

      // The old primary rejoins as a standby and the cluster is whole again.
      await cluster.revive(old.name);
      await cluster.waitHealthy();
      const members = (await (await fetch(now.api + '/cluster')).json()) as { members: { name: string; role: string }[] };
      expect(members.members.find((m) => m.name === old.name)!.role).not.toBe('leader');
    } finally {
      await cluster.stop();
    }
    expect(cluster.pids()).toEqual([]);
  });
});
