import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { etcdArgs, haproxyConfig, patroniConfig, pgbackrestConfig, type ClusterSettings } from './config-files';
import { BINARIES, Layout, type NodeLayout } from './layout';
import { clusterMembers, isPrimary, nodeStatus } from './patroni-api';
import { createStanza } from './pgbackrest';
import { probe, takesWrites } from './sql';
import { alive, childrenOf, chownTree, postmasterPid, runAsUser, signal, startProcess, waitGone, type Started } from './processes';

export interface ClusterNode {
  name: string;
  api: string;
  dataDir: string;
  pgPort: number;
}

export interface ClusterOptions {
  /** Everything under here: data folders, logs, sockets, etcd, the pgBackRest repository. */
  dir: string;
  /** A block of 20 loopback ports from here (see Layout). */
  basePort: number;
  nodes?: number;
  /** Patroni's synchronous_mode (not strict: docs/operations.md). Default true. */
  synchronous?: boolean;
  /** WAL archiving to a pgBackRest repository under `dir`. Default false. */
  archive?: boolean;
  log?: (line: string) => void;
  /** How long start() and waitHealthy() wait by default. */
  timeoutMs?: number;
}

/** Marks a folder as this tool's, so that a later start may clear it. */
const MARKER = '.local-cluster';

/**
 * etcd, Patroni nodes and HAProxy on loopback ports, under one folder: PostgreSQL streaming
 * replication with a synchronous standby, failover decided by Patroni, clients routed by HAProxy.
 */
export class LocalCluster {
  readonly databaseUrl: string;
  readonly nodes: ClusterNode[];
  readonly layout: Layout;
  readonly settings: ClusterSettings;
  private etcd?: Started;
  private haproxy?: Started;
  private readonly patroni = new Map<string, Started>();
  private stopping?: Promise<void>;
  private readonly log: (line: string) => void;
  private readonly timeoutMs: number;
  private readonly onExit = () => this.killAllNow();

  private constructor(opts: ClusterOptions) {
    this.layout = new Layout(path.resolve(opts.dir), opts.basePort, opts.nodes ?? 3);
    this.settings = { synchronous: opts.synchronous ?? true, archive: opts.archive ?? false };
    this.databaseUrl = this.layout.databaseUrl;
    this.nodes = this.layout.nodes.map((n) => ({
      name: n.name,
      api: `http://127.0.0.1:${n.apiPort}`,
      dataDir: n.dataDir,
      pgPort: n.pgPort,
    }));
    this.log = opts.log ?? (() => {});
    this.timeoutMs = opts.timeoutMs ?? 180_000;
  }

  /** Resolves once a leader accepts writes through HAProxy and (synchronous) a sync standby is in place. */
  static async start(opts: ClusterOptions): Promise<LocalCluster> {
    const cluster = new LocalCluster(opts);
    try {
      await cluster.boot();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw new Error(`${(error as Error).message}\n${cluster.logTail()}`);
    }
  }

  private async boot() {
    const { layout } = this;
    this.prepareFolder();
    process.once('exit', this.onExit);
    this.etcd = startProcess('etcd', BINARIES.etcd, etcdArgs(layout), path.join(layout.logDir, 'etcd.log'), layout.dir);
    await this.until(
      'etcd answers',
      async () => (await fetch(`http://127.0.0.1:${layout.etcdClientPort}/health`, { signal: AbortSignal.timeout(1000) })).ok,
    );
    this.log(`etcd up on 127.0.0.1:${layout.etcdClientPort}`);
    for (const node of layout.nodes) this.startPatroni(node);
    this.haproxy = startProcess(
      'haproxy',
      BINARIES.haproxy,
      ['-db', '-f', layout.haproxyConf],
      path.join(layout.logDir, 'haproxy.log'),
      layout.dir,
    );
    await this.waitHealthy();
    if (this.settings.archive) {
      const primary = await this.primary();
      await createStanza(this, primary.name);
      this.log('pgBackRest stanza created and checked');
    }
  }

  private prepareFolder() {
    const { layout } = this;
    if (fs.existsSync(layout.dir) && fs.readdirSync(layout.dir).length > 0) {
      if (!fs.existsSync(path.join(layout.dir, MARKER)))
        throw new Error(`${layout.dir} is not empty and not a local cluster's folder: refusing to clear it`);
      fs.rmSync(layout.dir, { recursive: true, force: true });
    }
    for (const d of [layout.dir, layout.logDir, layout.socketDir, layout.etcdDir, layout.repoDir]) fs.mkdirSync(d, { recursive: true });
    fs.chmodSync(layout.etcdDir, 0o700);
    fs.writeFileSync(path.join(layout.dir, MARKER), 'made by ops/cluster/local-cluster.ts; cleared on the next start\n');
    fs.writeFileSync(layout.haproxyConf, haproxyConfig(layout));
    for (const node of layout.nodes) {
      fs.mkdirSync(node.dir, { recursive: true });
      fs.writeFileSync(node.configFile, JSON.stringify(patroniConfig(layout, node, this.settings), null, 2) + '\n');
      fs.writeFileSync(node.pgbackrestConf, pgbackrestConfig(layout, node));
    }
    chownTree(layout.dir);
    const user = runAsUser();
    if (user && spawnSync('test', ['-w', layout.dir], user).status !== 0) {
      throw new Error(`the postgres user cannot reach ${layout.dir}: every folder above it must be searchable (chmod o+x)`);
    }
  }

  private startPatroni(node: NodeLayout) {
    const started = startProcess(
      node.name,
      BINARIES.patroni,
      [node.configFile],
      path.join(this.layout.logDir, `${node.name}.log`),
      node.dir,
    );
    this.patroni.set(node.name, started);
    this.log(`${node.name}: patroni pid ${started.pid}, postgres 127.0.0.1:${node.pgPort}, api 127.0.0.1:${node.apiPort}`);
  }

  private liveNodes(): ClusterNode[] {
    return this.nodes.filter((n) => {
      const p = this.patroni.get(n.name);
      return p && alive(p.pid);
    });
  }

  /** The node whose Patroni answers 200 on /primary (what HAProxy asks). */
  async primary(): Promise<ClusterNode> {
    for (const node of this.liveNodes()) if (await isPrimary(node.api)) return node;
    throw new Error('no node is primary now');
  }

  /** A leader, every live node streaming from it, the synchronous standby set, and a write through HAProxy acknowledged. */
  async waitHealthy(opts: { timeoutMs?: number } = {}): Promise<void> {
    await this.until('the cluster is healthy', () => this.healthy(), opts.timeoutMs);
  }

  private async healthy(): Promise<boolean> {
    const live = this.liveNodes();
    if (!live.length) throw new Error('no Patroni node is running');
    let leader: ClusterNode | undefined;
    for (const node of live) if (await isPrimary(node.api)) leader = node;
    if (!leader) return false;
    const status = await nodeStatus(leader.api);
    const streams = status?.replication ?? [];
    for (const node of live) {
      if (node !== leader && !streams.some((s) => s.application_name === node.name && s.state === 'streaming')) return false;
    }
    if (this.settings.synchronous && live.length > 1) {
      if (!streams.some((s) => s.sync_state === 'sync')) return false;
      const members = await clusterMembers(leader.api);
      if (!members?.some((m) => m.role === 'sync_standby')) return false;
    }
    return takesWrites(this.databaseUrl);
  }

  /**
   * Turns Patroni's synchronous_mode on or off on the running cluster (PATCH /config, as an operator
   * would), and resolves once the primary's synchronous_standby_names agrees and the cluster is healthy.
   */
  async setSynchronous(on: boolean, opts: { timeoutMs?: number } = {}): Promise<void> {
    const primary = await this.primary();
    const res = await fetch(primary.api + '/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ synchronous_mode: on }),
      signal: AbortSignal.timeout(5000),
    });
    if (res.status !== 200) throw new Error(`PATCH /config answered ${res.status}: ${await res.text()}`);
    this.settings.synchronous = on;
    await this.until(
      `synchronous_standby_names is ${on ? 'set' : 'empty'}`,
      async () => {
        const [row] = await probe<{ names: string }>(this.databaseUrl, "SELECT current_setting('synchronous_standby_names') AS names");
        return ((row?.names ?? '') !== '') === on;
      },
      opts.timeoutMs,
    );
    await this.waitHealthy(opts);
  }

  /** kill -9 of that node's Patroni, its postmaster and the postmaster's children: the machine is lost. */
  async kill(name: string): Promise<void> {
    const node = this.layout.node(name);
    const patroni = this.patroni.get(name);
    const postmaster = postmasterPid(node.dataDir);
    const backends = postmaster ? childrenOf(postmaster) : [];
    const pids = [patroni?.pid, postmaster, ...backends].filter((p): p is number => !!p);
    for (const pid of pids) signal(pid, 'SIGKILL');
    if (!(await waitGone(pids, 10_000))) throw new Error(`${name}: processes ${pids.join(',')} survived SIGKILL`);
    this.patroni.delete(name);
    this.log(`${name}: killed (pids ${pids.join(', ')})`);
  }

  /** Starts that node's Patroni again: it rejoins as a standby (pg_rewind when it has diverged). */
  async revive(name: string): Promise<void> {
    const node = this.layout.node(name);
    const running = this.patroni.get(name);
    if (running && alive(running.pid)) throw new Error(`${name} is running`);
    this.startPatroni(node);
    await this.until(`${name}'s REST API answers`, async () => !!(await nodeStatus(`http://127.0.0.1:${node.apiPort}`)));
  }

  /** Stops everything this instance started, by its own process ids. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll() {
    const patronis = [...this.patroni.values()].filter((p) => alive(p.pid));
    const postmasters = this.layout.nodes.map((n) => postmasterPid(n.dataDir)).filter((p): p is number => !!p);
    // Patroni stops its PostgreSQL on SIGTERM (fast shutdown).
    for (const p of patronis) signal(p.pid, 'SIGTERM');
    if (!(await waitGone([...patronis.map((p) => p.pid), ...postmasters], 30_000))) {
      for (const pid of [...patronis.map((p) => p.pid), ...postmasters]) signal(pid, 'SIGKILL');
      await waitGone(postmasters, 10_000);
    }
    for (const p of [this.haproxy, this.etcd]) if (p && alive(p.pid)) signal(p.pid, 'SIGTERM');
    const rest = [this.haproxy?.pid, this.etcd?.pid].filter((p): p is number => !!p);
    if (!(await waitGone(rest, 10_000))) for (const pid of rest) signal(pid, 'SIGKILL');
    await waitGone(rest, 5_000);
    process.removeListener('exit', this.onExit);
    this.log('cluster stopped');
  }

  /** Every process id this instance has started and that still runs (etcd, Patroni, postmasters, HAProxy). */
  pids(): number[] {
    const postmasters = this.layout.nodes.map((n) => postmasterPid(n.dataDir));
    return [this.etcd?.pid, this.haproxy?.pid, ...[...this.patroni.values()].map((p) => p.pid), ...postmasters].filter(
      (p): p is number => !!p && alive(p),
    );
  }

  /** On the test process's exit (a failed test that never called stop): nothing is left behind. */
  private killAllNow() {
    for (const pid of this.pids()) signal(pid, 'SIGKILL');
  }

  private async until(what: string, check: () => Promise<boolean>, timeoutMs = this.timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.etcd && !alive(this.etcd.pid)) throw new Error(`etcd exited while waiting until ${what}`);
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** The last lines of every log under the cluster's folder, for an error message. */
  logTail(lines = 15): string {
    const dir = this.layout.logDir;
    if (!fs.existsSync(dir)) return '';
    return fs
      .readdirSync(dir)
      .map((f) => `--- ${f}\n` + fs.readFileSync(path.join(dir, f), 'utf8').split('\n').slice(-lines).join('\n'))
      .join('\n');
  }
}
