// docs/benchmarks.md, written from the results files `npm run bench` leaves in bench/results/ (never by hand):
// the full run's figures in one table, each with its target and verdict, and the sections measured in runs of
// their own (storage, volume, replication), each under the run it comes from. `npm run bench` calls it at its end;
// alone, `npx tsx bench/write-benchmarks-md.ts` rewrites the page from the committed files.
import fs from 'node:fs';
import path from 'node:path';
import type { BusyMerchantFigures, LoadFigures } from './busy-merchant';
import type { RunProvenance } from './run-provenance';
import type { ConsoleRow, ModeFigures, MemoryRow } from './server-cases';
import type { SettlementFigures } from './settlement';
import type { StorageFigures } from './storage-breakdown';
import { SANDBOX_TARGETS, type SandboxFigures } from './sandboxes';
import { judge } from './verdict';
import type { VolumeFigures } from './volume';
import { volumeReport } from './volume-report';

const ROOT = path.resolve(__dirname, '..');
export const RESULTS_DIR = path.join(ROOT, 'bench/results');
export const PAGE = path.join(ROOT, 'docs/benchmarks.md');

type Latest = RunProvenance & {
  connections: number;
  durationSeconds: number;
  rounds: number;
  cases: ModeFigures['cases'];
  consoleProxy: ConsoleRow[];
  memory: MemoryRow[];
  busyMerchant?: BusyMerchantFigures;
  webhooks: ModeFigures['webhooks'];
  requestLog: ModeFigures['requestLog'];
  figures: ModeFigures['figures'];
  settlement?: SettlementFigures;
  sections: { name: string; seconds: number }[];
};
type Replication = {
  date: string;
  commit?: string;
  machine: string;
  clients: number;
  seconds: number;
  nodes: number;
  synchronous: { rps: number; loneP50Ms: number };
  asynchronous: { rps: number; loneP50Ms: number };
  ratio: number;
  pairedRatio: number;
  /** Absent in results from before it was measured. */
  hotRowLimit?: number;
  overHotRowLimit?: number;
  ledgerExact: boolean;
};

interface Row {
  area: string;
  figure: string;
  measured: string;
  /** No target: reported as measured. */
  target?: string;
  verdict?: string;
}

const n = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (x: number) => `${Math.round(x * 100)}%`;
const ms = (x: number) => `${n(x, x < 10 ? 2 : 0)} ms`;

const points = (x: number) => `${Math.round(x * 100)} points`;

const SERVER: Record<string, string> = {
  floor: 'the floor (bare node:http, the same SQL)',
  standalone: '`npm run start:api`',
  next: '`npm start`',
};
/** Share of the floor's requests per second, paired by round. */
const FLOOR_TARGETS: Record<string, number> = {
  'standalone withdraw': 0.9,
  'standalone get_balance': 0.8,
  'next withdraw': 0.9,
  'next get_balance': 0.9,
};

function serverRows(r: Latest): Row[] {
  return r.cases.map((c) => {
    const target = FLOOR_TARGETS[`${c.server} ${c.action}`];
    const load = `${n(c.rps)} req/s, p50 ${c.p50} ms, p99 ${c.p99} ms, ${c.non2xx + c.errors} non-2xx`;
    return {
      area: `API, ${c.mode}`,
      figure: `${SERVER[c.server] ?? c.server}: \`${c.action}\``,
      measured: c.server === 'floor' ? load : `${pct(c.ratio)} of the floor (${load})`,
      ...(target === undefined ? {} : { target: `≥ ${pct(target)} of the floor`, verdict: judge(c.ratio, target, true, points) }),
    };
  });
}

function consoleRows(r: Latest): Row[] {
  const proxy = r.consoleProxy.map((p) => ({
    area: `console, ${p.mode}`,
    figure: `time a console route adds to \`${p.action}\` (p50, one connection)`,
    measured: `${ms(p.addedMs)} (${ms(p.proxyP50)} against ${ms(p.directP50)} direct)`,
    target: '≤ 2 ms',
    verdict: judge(p.addedMs, 2, false, ms),
  }));
  const memory = r.memory.map((m) => ({
    area: `memory, ${m.mode}`,
    figure: `${SERVER[m.server] ?? m.server}: resident memory`,
    measured: `${m.idleMiB} MiB idle, ${m.loadMiB} MiB at peak under load`,
  }));
  return [...proxy, ...memory];
}

const cpu = (f: LoadFigures) => `${n(f.serverCpuMs + f.databaseCpuMs, 2)} ms CPU per withdrawal`;

function busyRows(b: BusyMerchantFigures): Row[] {
  const area = 'a busy merchant, postgres';
  const rows: Row[] = [];
  for (const c of ['8', '64']) {
    const o = b.oneMerchant[c]!;
    rows.push({ area, figure: `hot-row limit (pgbench, ${c} clients)`, measured: `${n(b.hotRowLimit[c]!)} updates/s` });
    rows.push({
      area,
      figure: `one merchant, ${c} clients, group commit: share of the hot-row limit`,
      measured: `${pct(o.ofLimit)} (${n(o.on.rps)} withdrawals/s, p99 ${o.on.p99} ms, mean group ${o.on.groupSize})`,
      ...(c === '64' ? { target: '≥ 100%', verdict: judge(o.ofLimit, 1, true, points) } : {}),
    });
    if (c !== '64') continue;
    rows.push(
      {
        area,
        figure: `one merchant, ${c} clients: grouped ÷ not grouped`,
        measured: `${o.onOverOff}× (${n(o.on.rps)} against ${n(o.off.rps)}/s)`,
        target: '≥ 3×',
        verdict: judge(o.onOverOff, 3, true, (x) => `${n(x, 2)}×`),
      },
      {
        area,
        figure: `one merchant, ${c} clients: p99 grouped`,
        measured: `${o.on.p99} ms (${o.off.p99} ms not grouped)`,
        target: 'no worse than not grouped',
        verdict: judge(o.on.p99, o.off.p99, false, (x) => `${n(x)} ms`),
      },
      {
        area,
        figure: `one merchant, ${c} clients: CPU (server + PostgreSQL)`,
        measured: `${cpu(o.on)} (${cpu(o.off)} not grouped)`,
        target: 'half of not grouped',
        verdict: judge(o.on.serverCpuMs + o.on.databaseCpuMs, (o.off.serverCpuMs + o.off.databaseCpuMs) / 2, false, (x) => `${n(x, 2)} ms`),
      },
    );
  }
  const m = b.manyMerchants;
  rows.push(
    {
      area,
      figure: `${m.merchants} merchants, ${m.clients} clients: grouped ÷ not grouped`,
      measured: `${m.onOverOff}× (${n(m.on.rps)} against ${n(m.off.rps)}/s)`,
      target: '≥ 2.5×',
      verdict: judge(m.onOverOff, 2.5, true, (x) => `${n(x, 2)}×`),
    },
    {
      area,
      figure: 'one client: p50 grouped against not grouped',
      measured: `${ms(b.oneClient.onP50)} against ${ms(b.oneClient.offP50)}`,
      target: 'within 1 ms',
      verdict: judge(b.oneClient.onP50 - b.oneClient.offP50, 1, false, ms),
    },
    {
      area,
      figure: `${n(b.batch.payouts)} payouts in batches of 1,000`,
      measured: `${n(b.batch.ms)} ms in all, ledger ${b.batch.invariantExact ? 'exact' : 'NOT exact'}`,
      target: '≤ 5,000 ms, ledger exact',
      verdict: b.batch.invariantExact ? judge(b.batch.ms, 5000, false, (x) => `${n(x)} ms`) : 'NOT met: the ledger is not exact',
    },
  );
  return rows;
}

function costRows(r: Latest): Row[] {
  return [
    ...r.webhooks.map((w) => ({
      area: `events and webhooks, ${w.mode}`,
      figure: 'withdrawals of a merchant with an endpoint ÷ without',
      measured: `${pct(w.ratio)} (${n(w.withEndpoint)} against ${n(w.withoutEndpoint)}/s; backlog drained at ${n(w.drainPerSecond)} deliveries/s)`,
      target: '≥ 90%',
      verdict: judge(w.ratio, 0.9, true, points),
    })),
    ...r.requestLog.map((l) => ({
      area: `request log, ${l.mode}`,
      figure: `\`${l.action}\` with the log ÷ without`,
      measured: `${pct(l.ratio)} (${n(l.withLog)} against ${n(l.withoutLog)}/s)`,
      target: '≥ 90%',
      verdict: judge(l.ratio, 0.9, true, points),
    })),
    ...r.figures.map((f) => ({
      area: 'per-day figures, postgres',
      figure: `withdrawals with the figures' triggers ÷ without, ${f.connections} connections`,
      measured: `${pct(f.ratio)} (${n(f.withFigures)} against ${n(f.withoutFigures)}/s)`,
      target: '≥ 95%',
      verdict: judge(f.ratio, 0.95, true, points),
    })),
  ];
}

function settlementRows(s: SettlementFigures): Row[] {
  const area = 'settlement, postgres';
  return [
    {
      area,
      figure: `${n(s.dueAtStart)} due payouts settled alone by one \`${s.server}\``,
      measured: `${n(s.perSecond)} payouts/s (${n(s.seconds, 1)} s)`,
      target: '≥ 5,000 payouts/s',
      verdict: judge(s.perSecond, 5000, true, (x) => `${n(x)}/s`),
    },
    {
      area,
      figure: 'CPU per settled payout',
      measured: `node ${n(s.nodeCpuUsPerPayout, 1)} µs, PostgreSQL ${n(s.databaseCpuUsPerPayout, 1)} µs`,
    },
    {
      area,
      figure: 'HOT updates of payouts while settling',
      measured: `${(100 * s.hotShare).toFixed(1)}% of ${n(s.updates)}`,
      target: '≥ 90%',
      verdict: judge(s.hotShare, 0.9, true, pct),
    },
    {
      area,
      figure: `batches at full speed for ${s.arrivalSeconds} s`,
      measured: `${n(s.arrived)} payouts (${n(s.arrivalPerSecond)}/s), ${n(s.settledDuringArrival)} settled meanwhile`,
    },
    {
      area,
      figure: 'the backlog left when arrival stopped: its drain',
      measured: `${n(s.backlogAtEnd)} payouts in ${n(s.drainSeconds, 1)} s`,
      target: '≤ 120 s',
      verdict: judge(s.drainSeconds, 120, false, (x) => `${n(x, 1)} s`),
    },
  ];
}

function runRows(r: Latest): Row[] {
  return r.sections.map((x) =>
    x.name === 'the whole run'
      ? {
          area: 'the bench itself',
          figure: 'the whole `npm run bench`',
          measured: `${n(x.seconds, 1)} s`,
          target: '≤ 600 s',
          verdict: judge(x.seconds, 600, false, (v) => `${n(v, 1)} s`),
        }
      : { area: 'the bench itself', figure: `time in: ${x.name}`, measured: `${n(x.seconds, 1)} s` },
  );
}

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '\\|');
function table(rows: Row[]): string[] {
  return [
    '| area | figure | measured | target | verdict |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${cell(r.area)} | ${cell(r.figure)} | ${cell(r.measured)} | ${cell(r.target ?? 'none: reported')} | ${cell(r.verdict)} |`,
    ),
  ];
}

/** "2026-11-27 06:01 UTC" from an ISO date; a date alone is kept as it is. */
const when = (iso: string) => (iso.length > 10 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso);
function provenance(file: string, p: { date: string; commit?: string; machine: unknown }): string {
  const m = p.machine;
  const machine =
    typeof m === 'string'
      ? m
      : m && typeof m === 'object'
        ? (() => {
            const x = m as RunProvenance['machine'];
            const load = x.loadAverage === undefined ? '' : `, load average ${x.loadAverage} at the start`;
            return `${x.cpus} cores (${x.cpu ?? 'cpu not recorded'}), ${x.memoryGiB} GiB, Node ${x.node}, PostgreSQL ${x.postgres ?? 'not recorded'}${load}`;
          })()
        : 'not recorded';
  return `From \`${file}\`: run ${when(p.date)}, commit ${p.commit ?? 'not recorded'}; ${machine}.`;
}

const read = <T>(name: string): T | undefined => {
  const file = path.join(RESULTS_DIR, name);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : undefined;
};

/** The page, from the results files as they are. */
export function benchmarksPage(): string {
  const latest = read<Latest>('latest.json');
  const storage = read<RunProvenance & StorageFigures>('storage.json');
  const volume = read<RunProvenance & { volume: VolumeFigures[] }>('volume.json');
  const replication = read<Replication>('replication-cost.json');
  const sandboxes = read<RunProvenance & SandboxFigures>('sandboxes.json');
  const settlement = read<RunProvenance & SettlementFigures>('settlement.json');
  const busy = read<RunProvenance & BusyMerchantFigures>('busy.json');
  const lines = [
    '# Benchmarks: the current figures, each against its target',
    '',
    'This page is written by `npm run bench` from the results files in `bench/results/`; do not edit it by hand',
    '(`npx tsx bench/write-benchmarks-md.ts` rewrites it from those files, and a test fails when the two differ).',
    "Earlier runs are in git's history of `bench/results/`. What each case measures and why the design meets its",
    'targets: [the proofs](prove.md). Speed is measured as ratios against a floor run beside the servers in the same',
    'rounds, so a busy machine moves both sides alike; absolute rates depend on the machine named with each run.',
    '',
  ];
  if (latest) {
    lines.push(
      '## The full run: `npm run bench`',
      '',
      `${provenance('bench/results/latest.json', latest)} ${latest.connections} connections, the median of ${latest.rounds}`,
      `interleaved rounds of ${latest.durationSeconds} s per case; each ratio is taken within a round, then its median.`,
      '',
      ...table([
        ...serverRows(latest),
        ...consoleRows(latest),
        ...(latest.busyMerchant ? busyRows(latest.busyMerchant) : []),
        ...costRows(latest),
        ...runRows(latest),
      ]),
      '',
    );
  }
  if (busy) {
    const one = busy.oneMerchant['64']!;
    lines.push(
      "## A busy merchant's withdrawals: `BENCH_ONLY_BUSY=1 npm run bench`",
      '',
      `${provenance('bench/results/busy.json', busy)} \`npm start\` on PostgreSQL, one merchant; pgbench's one-row update`,
      'with as many clients, in the same rounds, is the hot-row limit. Through the replicated cluster: `npm run bench:replication`.',
      '',
      ...table([
        {
          area: 'a busy merchant',
          figure: 'a lone withdrawal, p50 (one client, group commit on)',
          measured: `${ms(busy.oneClient.onP50)} (${ms(busy.oneClient.offP50)} with group commit off)`,
          target: '≤ 2 ms',
          verdict: judge(busy.oneClient.onP50, 2, false, (x) => `${n(x, 2)} ms`),
        },
        {
          area: 'a busy merchant',
          figure: "one merchant, 64 clients ÷ pgbench's hot-row limit, PostgreSQL alone",
          measured: `${n(one.ofLimit, 2)}× paired by round (${n(one.on.rps)} withdrawals/s; pgbench ${n(busy.hotRowLimit['64']!)}/s)`,
          target: '≥ 1.5×',
          verdict: judge(one.ofLimit, 1.5, true, (x) => `${n(x, 2)}×`),
        },
        ...(replication?.overHotRowLimit === undefined
          ? []
          : [
              {
                area: 'a busy merchant',
                figure: "one merchant, 64 clients ÷ pgbench's hot-row limit, through the replicated cluster",
                measured: `${n(replication.overHotRowLimit, 2)}× paired by round (${n(replication.synchronous.rps)} withdrawals/s; pgbench ${n(replication.hotRowLimit!)}/s; ${replication.date})`,
                target: '≥ 1.0×',
                verdict: judge(replication.overHotRowLimit, 1, true, (x) => `${n(x, 2)}×`),
              },
            ]),
      ]),
      '',
    );
  }
  if (settlement)
    lines.push(
      '## Settlement through one `npm start`',
      '',
      `${provenance('bench/results/settlement.json', settlement)} The server's own settlement job, nothing settling beside it:`,
      'a backlog written before the server starts, then batches of 1,000 from 4 clients through its API and the drain.',
      '',
      ...table(settlementRows(settlement)),
      '',
    );
  if (storage)
    lines.push(
      "## A settled payout's bytes",
      '',
      `${provenance('bench/results/storage.json', storage)} ${n(storage.payouts)} payouts made in batches, every one`,
      'settled (2% failing), then `VACUUM`; reported without a target.',
      '',
      ...table([
        {
          area: 'storage, postgres',
          figure: 'bytes per settled payout, events within their retention',
          measured: `${n(storage.bytesWithinRetention)} bytes`,
        },
        { area: 'storage, postgres', figure: 'bytes per settled payout, events purged', measured: `${n(storage.bytesPurged)} bytes` },
        { area: 'storage, postgres', figure: "HOT share of settlement's updates of payouts", measured: pct(storage.hotShare) },
      ]),
      '',
    );
  if (sandboxes)
    lines.push(
      '## Sandboxes: `BENCH_ONLY_SANDBOXES=1 npm run bench`',
      '',
      `${provenance('bench/results/sandboxes.json', sandboxes)} PostgreSQL, in process over HTTP; the floor is`,
      `\`get_balance\`'s p50 on the same server (${ms(sandboxes.floorP50Ms)}).`,
      '',
      ...table([
        {
          area: 'sandboxes',
          figure: '`create_sandbox`, p50',
          measured: `${ms(sandboxes.createP50Ms)} (${n(sandboxes.createP50Ms / sandboxes.floorP50Ms, 1)}× the floor)`,
          target: `≤ ${ms(SANDBOX_TARGETS.createP50Ms)}`,
          verdict: judge(sandboxes.createP50Ms, SANDBOX_TARGETS.createP50Ms, false, ms),
        },
        {
          area: 'sandboxes',
          figure: '64 `create_sandbox` at once, wall time',
          measured: ms(sandboxes.parallel64Ms),
          target: `≤ ${ms(SANDBOX_TARGETS.parallel64Ms)}`,
          verdict: judge(sandboxes.parallel64Ms, SANDBOX_TARGETS.parallel64Ms, false, ms),
        },
        {
          area: 'sandboxes',
          figure: `\`delete_sandbox\`, p50, ${n(sandboxes.payoutsPerDeleted)} payouts each`,
          measured: `${ms(sandboxes.deleteP50Ms)} (${n(sandboxes.deleteP50Ms / sandboxes.floorP50Ms, 1)}× the floor)`,
          target: `≤ ${ms(SANDBOX_TARGETS.deleteP50Ms)}`,
          verdict: judge(sandboxes.deleteP50Ms, SANDBOX_TARGETS.deleteP50Ms, false, ms),
        },
        { area: 'sandboxes', figure: 'the purge of a deleted sandbox (background job), each', measured: ms(sandboxes.purgeMsPerSandbox) },
      ]),
      '',
    );
  if (volume)
    lines.push(
      "## A busy merchant's history: `BENCH_VOLUME=1 npm run bench`",
      '',
      `${provenance('bench/results/volume.json', volume)}`,
      '',
      ...volume.volume.flatMap((v) => {
        const [title, ...rest] = volumeReport(v);
        return [`${title}.`, '', ...rest, ''];
      }),
    );
  if (replication)
    lines.push(
      '## A synchronous standby: `npm run bench:replication`',
      '',
      `${provenance('bench/results/replication-cost.json', replication)} ${replication.clients} clients on one merchant,`,
      `group commit on, ${replication.nodes} Patroni nodes, rounds of ${replication.seconds} s alternating the two modes.`,
      '',
      ...table([
        {
          area: 'replication',
          figure: 'withdrawals/s, synchronous ÷ asynchronous standby',
          measured: `${n(replication.ratio, 2)}× (${n(replication.synchronous.rps)} against ${n(replication.asynchronous.rps)}/s; ${n(replication.pairedRatio, 2)}× paired by round)`,
          target: '≥ 0.7×',
          verdict: judge(replication.ratio, 0.7, true, (x) => `${n(x, 2)}×`),
        },
        ...(replication.overHotRowLimit === undefined
          ? []
          : [
              {
                area: 'replication',
                figure: "withdrawals/s, synchronous ÷ pgbench's hot-row limit through the same cluster",
                measured: `${n(replication.overHotRowLimit, 2)}× paired by round (pgbench ${n(replication.hotRowLimit!)}/s)`,
                target: '≥ 1.0×',
                verdict: judge(replication.overHotRowLimit, 1.0, true, (x) => `${n(x, 2)}×`),
              },
            ]),
        {
          area: 'replication',
          figure: 'a lone client, p50',
          measured: `${ms(replication.synchronous.loneP50Ms)} synchronous, ${ms(replication.asynchronous.loneP50Ms)} asynchronous`,
        },
        { area: 'replication', figure: 'the ledger after the run', measured: replication.ledgerExact ? 'exact' : 'NOT exact' },
      ]),
      '',
    );
  return lines.join('\n').trimEnd() + '\n';
}

/** Rewrites docs/benchmarks.md; returns its path, relative to the working directory. */
export function writeBenchmarksPage(): string {
  fs.writeFileSync(PAGE, benchmarksPage());
  return path.relative(process.cwd(), PAGE);
}

if (process.argv[1]?.endsWith('/bench/write-benchmarks-md.ts')) process.stdout.write(`Written to ${writeBenchmarksPage()}\n`);
