// The local replicated deployment (ops/cluster): `npm run cluster` prints its JSON line and stops
// every process it started on SIGTERM. Failover (kill -9 of the primary, a new primary behind
// HAProxy, WAL archiving from it, the lost node's rejoin) is the drill under load:
// tests/stress/failover.stress.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterBinariesMissing, freePortBlock } from '@/ops/cluster/layout';
import { probe } from '@/ops/cluster/sql';
import { ROOT } from '../../testing/server-process';

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
    const [row] = await probe<{ ro: boolean }>(printed.database_url, 'SELECT pg_is_in_recovery() AS ro');
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
});
