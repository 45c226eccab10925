import path from 'node:path';
import { BINARIES, PG_BIN_DIR, REPLICATION_USER, SCOPE, STANZA, SUPERUSER, type Layout, type NodeLayout } from './layout';

/**
 * The DCS settings of a local drill: a dead primary's leader key expires after `ttl`, and
 * the nodes look every `loop_wait`. Production keeps Patroni's defaults (30/10/10): see
 * docs/operations.md for what each costs in RTO.
 */
export const DRILL_TIMING = { ttl: 10, loop_wait: 1, retry_timeout: 4 } as const;

export interface ClusterSettings {
  synchronous: boolean;
  archive: boolean;
}

/** pgBackRest's commands as PostgreSQL runs them: through the node's own config file. */
function backrest(node: NodeLayout, command: string) {
  return `${BINARIES.pgbackrest} --config=${node.pgbackrestConf} --stanza=${STANZA} ${command}`;
}

/**
 * Patroni's configuration of one node. JSON is valid YAML, and Patroni reads YAML:
 * so the file is written with JSON.stringify, and no YAML library is needed.
 */
export function patroniConfig(layout: Layout, node: NodeLayout, settings: ClusterSettings) {
  const parameters: Record<string, string | number> = {
    wal_level: 'replica',
    hot_standby: 'on',
    // pg_rewind needs hint bits in the WAL (or data checksums) to rejoin a failed primary.
    wal_log_hints: 'on',
    max_wal_senders: 10,
    max_replication_slots: 10,
    max_connections: 200,
    wal_keep_size: '256MB',
    ...(settings.archive ? { archive_mode: 'on', archive_timeout: 60 } : { archive_mode: 'off' }),
  };
  return {
    scope: SCOPE,
    name: node.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.apiPort}`, connect_address: `127.0.0.1:${node.apiPort}` },
    etcd3: { hosts: [`127.0.0.1:${layout.etcdClientPort}`] },
    bootstrap: {
      dcs: {
        ...DRILL_TIMING,
        // A standby more than 1 MiB behind is not promoted: better wait than lose acknowledged writes.
        maximum_lag_on_failover: 1048576,
        synchronous_mode: settings.synchronous,
        // Not strict: the last node left keeps taking writes (docs/operations.md, RPO).
        synchronous_mode_strict: false,
        postgresql: { use_pg_rewind: true, use_slots: true, parameters },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C' }],
      pg_hba: [
        'local all all trust',
        `host replication ${REPLICATION_USER.username} 127.0.0.1/32 scram-sha-256`,
        // The local drill's clients connect without a password, as to the machine's own test server.
        'host all all 127.0.0.1/32 trust',
      ],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: PG_BIN_DIR,
      pgpass: path.join(node.dir, 'pgpass'),
      authentication: { superuser: SUPERUSER, replication: REPLICATION_USER },
      // Local parameters win over the DCS's, which every node shares: each node archives through its own config.
      parameters: {
        unix_socket_directories: layout.socketDir,
        password_encryption: 'scram-sha-256',
        ...(settings.archive ? { archive_command: backrest(node, 'archive-push %p') } : {}),
      },
      // No restore_command: a replica catches up by streaming only (replication slots and wal_keep_size
      // keep what it needs). Fetching from the archive, a standby can replay a segment the lost primary
      // archived past the failover's fork point before it learns of the new timeline, and then it can
      // never follow the new primary (seen in the failover drill; docs/operations.md). The archive is
      // for restores, never for catch-up.
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/** etcd's command line: one member on loopback (production runs three, on three machines). */
export function etcdArgs(layout: Layout): string[] {
  const client = `http://127.0.0.1:${layout.etcdClientPort}`;
  const peer = `http://127.0.0.1:${layout.etcdPeerPort}`;
  return [
    '--name=etcd1',
    `--data-dir=${layout.etcdDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=etcd1=${peer}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${SCOPE}-${layout.basePort}`,
  ];
}

/**
 * HAProxy in front: a node takes connections only while its Patroni REST API answers 200 on
 * /primary, and the sessions of a node marked down are cut, so no client keeps writing to a
 * demoted primary.
 */
export function haproxyConfig(layout: Layout): string {
  const servers = layout.nodes.map((n) => `    server ${n.name} 127.0.0.1:${n.pgPort} maxconn 500 check port ${n.apiPort}`);
  return [
    'global',
    '    maxconn 2000',
    `    pidfile ${path.join(layout.dir, 'haproxy.pid')}`,
    '',
    'defaults',
    '    mode tcp',
    '    log global',
    '    retries 2',
    '    timeout connect 4s',
    '    timeout client 30m',
    '    timeout server 30m',
    '    timeout check 2s',
    '',
    'listen primary',
    `    bind 127.0.0.1:${layout.haproxyPort}`,
    '    option httpchk GET /primary',
    '    http-check expect status 200',
    '    default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions',
    ...servers,
    '',
  ].join('\n');
}

/** pgBackRest's configuration as seen from one node: its own data folder, the shared repository. */
export function pgbackrestConfig(layout: Layout, node: NodeLayout): string {
  return [
    '[global]',
    `repo1-path=${layout.repoDir}/repo`,
    // Two full backups kept, and the WAL and incrementals that depend on them.
    'repo1-retention-full=2',
    `lock-path=${layout.repoDir}/lock`,
    `log-path=${layout.logDir}`,
    'log-level-file=info',
    'log-level-console=warn',
    'start-fast=y',
    'archive-async=n',
    'process-max=1',
    '',
    `[${STANZA}]`,
    `pg1-path=${node.dataDir}`,
    `pg1-port=${node.pgPort}`,
    `pg1-socket-path=${layout.socketDir}`,
    'pg1-user=postgres',
    '',
  ].join('\n');
}
