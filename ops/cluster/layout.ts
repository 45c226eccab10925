import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Where the Debian packages put PostgreSQL 15's binaries; PG_BIN_DIR overrides. */
export const PG_BIN_DIR = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
export const BINARIES = {
  etcd: process.env.ETCD_BIN ?? '/usr/bin/etcd',
  patroni: process.env.PATRONI_BIN ?? '/usr/bin/patroni',
  haproxy: process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy',
  pgbackrest: process.env.PGBACKREST_BIN ?? '/usr/bin/pgbackrest',
  postgres: path.join(PG_BIN_DIR, 'postgres'),
} as const;

/** The pgBackRest stanza (the name of this database cluster in the repository). */
export const STANZA = 'payments';
/** The Patroni scope: the key under which the nodes meet in etcd. */
export const SCOPE = 'payments';
/** Local drill only: production keeps these in a secret store (docs/operations.md). */
export const REPLICATION_USER = { username: 'replicator', password: 'local-replication-only' };
export const SUPERUSER = { username: 'postgres', password: 'local-superuser-only' };

export interface NodeLayout {
  name: string;
  pgPort: number;
  apiPort: number;
  dir: string;
  dataDir: string;
  configFile: string;
  pgbackrestConf: string;
}

/**
 * Ports and folders of a local cluster, all derived from `dir` and `basePort`:
 * base etcd client, +1 etcd peer, +2 HAProxy, +10+2i node i's PostgreSQL, +11+2i its REST API.
 */
export class Layout {
  readonly nodes: NodeLayout[];
  constructor(
    readonly dir: string,
    readonly basePort: number,
    nodeCount: number,
  ) {
    if (nodeCount < 1 || nodeCount > 5) throw new Error('a local cluster has 1 to 5 nodes');
    this.nodes = Array.from({ length: nodeCount }, (_, i) => {
      const name = `node${i + 1}`;
      const nodeDir = path.join(dir, name);
      return {
        name,
        pgPort: basePort + 10 + 2 * i,
        apiPort: basePort + 11 + 2 * i,
        dir: nodeDir,
        dataDir: path.join(nodeDir, 'data'),
        configFile: path.join(nodeDir, 'patroni.yml'),
        pgbackrestConf: path.join(nodeDir, 'pgbackrest.conf'),
      };
    });
  }
  get etcdClientPort() {
    return this.basePort;
  }
  get etcdPeerPort() {
    return this.basePort + 1;
  }
  get haproxyPort() {
    return this.basePort + 2;
  }
  get etcdDir() {
    return path.join(this.dir, 'etcd');
  }
  get logDir() {
    return path.join(this.dir, 'logs');
  }
  /** Unix sockets: a short path of the cluster's own (a socket path must stay under 108 bytes). */
  get socketDir() {
    return path.join(this.dir, 'run');
  }
  get haproxyConf() {
    return path.join(this.dir, 'haproxy.cfg');
  }
  get repoDir() {
    return path.join(this.dir, 'backrest');
  }
  get databaseUrl() {
    return `postgres://postgres@127.0.0.1:${this.haproxyPort}/postgres`;
  }
  node(name: string): NodeLayout {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node named ${name}`);
    return node;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A block of `size` loopback ports, all free now, from a random start in 30000-59999. */
export async function freePortBlock(size = 20): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 30000 + 20 * Math.floor(Math.random() * 1500);
    let free = true;
    for (let p = base; p < base + size && free; p++) free = await isFree(p);
    if (free) return base;
  }
  throw new Error(`no block of ${size} free ports found`);
}

/** Whether this machine has what a local cluster needs (Debian: patroni etcd-server haproxy pgbackrest postgresql-15). */
export function clusterBinariesMissing(): string[] {
  return Object.values(BINARIES).filter((bin) => {
    try {
      fs.accessSync(bin, fs.constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
}
