// The generated configuration of the local cluster uses PostgreSQL's and Patroni's own mechanisms:
// synchronous mode, pg_rewind (with wal_log_hints), HAProxy's check of /primary that cuts sessions.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRILL_TIMING, etcdArgs, haproxyConfig, patroniConfig, pgbackrestConfig } from '@/ops/cluster/config-files';
import { BINARIES, Layout, STANZA } from '@/ops/cluster/layout';

const layout = new Layout('/srv/cluster', 40000, 3);

describe('local cluster configuration', () => {
  it('gives every process its own port in the block, and every node its own folder', () => {
    const ports = [layout.etcdClientPort, layout.etcdPeerPort, layout.haproxyPort, ...layout.nodes.flatMap((n) => [n.pgPort, n.apiPort])];
    expect(new Set(ports).size).toBe(ports.length);
    expect(Math.max(...ports) - 40000).toBeLessThan(20);
    expect(new Set(layout.nodes.map((n) => n.dataDir)).size).toBe(3);
    expect(layout.nodes.every((n) => n.dataDir.startsWith('/srv/cluster/'))).toBe(true);
    expect(layout.databaseUrl).toBe('postgres://postgres@127.0.0.1:40002/postgres');
  });

  it('Patroni: synchronous mode (not strict), pg_rewind with wal_log_hints, a replication user, timing that Patroni accepts', () => {
    const config = patroniConfig(layout, layout.nodes[1]!, { synchronous: true, archive: false });
    const dcs = config.bootstrap.dcs;
    expect(dcs.synchronous_mode).toBe(true);
    expect(dcs.synchronous_mode_strict).toBe(false);
    expect(dcs.postgresql.use_pg_rewind).toBe(true);
    expect(dcs.postgresql.parameters.wal_log_hints).toBe('on');
    expect(dcs.postgresql.parameters.archive_mode).toBe('off');
    // Patroni's rule: loop_wait + 2 × retry_timeout ≤ ttl, or a slow DCS demotes a healthy primary.
    expect(DRILL_TIMING.loop_wait + 2 * DRILL_TIMING.retry_timeout).toBeLessThanOrEqual(DRILL_TIMING.ttl);
    expect(config.postgresql.authentication.replication.username).toBe('replicator');
    expect(config.bootstrap.pg_hba).toContain('host replication replicator 127.0.0.1/32 scram-sha-256');
    expect(config.restapi.listen).toBe(`127.0.0.1:${layout.nodes[1]!.apiPort}`);
    expect(patroniConfig(layout, layout.nodes[0]!, { synchronous: false, archive: false }).bootstrap.dcs.synchronous_mode).toBe(false);
  });

  it('archiving: each node pushes WAL with its own pgBackRest config, and replicas can fetch from the repository', () => {
    const node = layout.nodes[2]!;
    const config = patroniConfig(layout, node, { synchronous: true, archive: true });
    expect(config.bootstrap.dcs.postgresql.parameters.archive_mode).toBe('on');
    // In the node's own parameters, not the DCS's (which every node shares): whichever node is primary archives through its config.
    expect(config.postgresql.parameters.archive_command).toBe(
      `/usr/bin/pgbackrest --config=${node.pgbackrestConf} --stanza=${STANZA} archive-push %p`,
    );
    // Replicas stream only: an archived segment of the lost primary past the fork would strand them.
    expect(JSON.stringify(config)).not.toContain('archive-get');
    const conf = pgbackrestConfig(layout, node);
    expect(conf).toContain(`pg1-path=${node.dataDir}`);
    expect(conf).toContain('repo1-path=/srv/cluster/backrest/repo');
    expect(conf).toMatch(/^repo1-retention-full=\d+$/m);
  });

  it('HAProxy routes to the node whose Patroni answers 200 on /primary and cuts the sessions of a node marked down', () => {
    const cfg = haproxyConfig(layout);
    expect(cfg).toContain('option httpchk GET /primary');
    expect(cfg).toContain('http-check expect status 200');
    expect(cfg).toContain('default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions');
    for (const n of layout.nodes) expect(cfg).toContain(`server ${n.name} 127.0.0.1:${n.pgPort} maxconn 500 check port ${n.apiPort}`);
    expect(cfg).toContain('bind 127.0.0.1:40002');
  });

  it.skipIf(!fs.existsSync(BINARIES.haproxy))('HAProxy accepts the generated configuration (haproxy -c)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haproxy-cfg-'));
    try {
      const file = path.join(dir, 'haproxy.cfg');
      fs.writeFileSync(file, haproxyConfig(new Layout(dir, 40000, 3)));
      const r = spawnSync(BINARIES.haproxy, ['-c', '-f', file], { encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('etcd listens on loopback only', () => {
    expect(
      etcdArgs(layout)
        .filter((a) => a.includes('://'))
        .every((a) => a.includes('http://127.0.0.1:')),
    ).toBe(true);
  });
});
