// npm run bench: autocannon against get_balance and withdraw on each mount, beside the floor, in one run.
// Not pass/fail: prints req/s, p50, p99, the ratio to the floor and memory; writes bench/results/latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { openDb } from '../lib/db/open-db';
import { credit } from '../lib/payments/ledger/ledger';
import { seedDemoMerchant } from '../lib/payments/keys/merchants';
import { createSchemaUrl, dropSchemas, postgresUrl } from '../tests/helpers/databases';
import { ensureNextBuild } from '../tests/helpers/next-build';
import { DEMO_KEY, ROOT, ServerProcess, type ServerKind } from '../tests/helpers/server-process';
import { webhookCost, type WebhookCostFigures } from './webhook-cost';
import { busyMerchant, type BusyMerchantFigures } from './busy-merchant';
import { busyMerchantReport } from './busy-merchant-report';
import { requestLogFigures, requestLogRows, type RequestLogCostFigures } from './request-log-cost';
import { volumeBench, volumeReport, type VolumeFigures } from './volume';
import { settlementBench, settlementReport, type SettlementFigures } from './settlement';
import { figuresCost, type FiguresCostFigures } from './figures-cost';
import { apiDrive, consoleDrive, drive, sequentialP50, signIn, WARM_UP_S, type Action } from './drive';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
/**
 * Rounds of every case, interleaved and in a new order each round, so that a burst of load from
 * elsewhere on a shared machine hits all servers alike. Figures are medians over rounds; the ratio
 * to the floor is taken within each round first (a paired comparison), then its median.
 */
// Three rounds of 3 s (five of 4 s until 2026-11-27): the whole run must fit in 10 minutes beside the settlement case's
// fixed four (a million payouts, then two minutes of arrival).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
/** Comma lists narrow a run while working on one case (BENCH_MODES=postgres BENCH_SERVERS=standalone); the floor always runs. */
const only = <T extends string>(name: string, all: readonly T[]): T[] => {
  const wanted = process.env[name]?.split(',').map((s) => s.trim());
  return wanted ? all.filter((x) => wanted.includes(x)) : [...all];
};
const MODES = only('BENCH_MODES', postgresUrl ? (['postgres', 'embedded'] as const) : (['embedded'] as const));
/** BENCH_ONLY_REQUEST_LOG=1: the cost of the request log alone; BENCH_REQUEST_LOG=0 leaves it out. */
const ONLY_REQUEST_LOG = process.env.BENCH_ONLY_REQUEST_LOG === '1';
const KINDS: ServerKind[] = [
  'floor',
  ...(ONLY_REQUEST_LOG ? (['standalone'] as const) : only('BENCH_SERVERS', ['standalone', 'next'] as const)),
];
const ACTIONS = only('BENCH_ACTIONS', ['get_balance', 'withdraw'] as const);
const CONSOLE = process.env.BENCH_CONSOLE !== '0' && KINDS.includes('next');
/** The busy-merchant section (PostgreSQL): hot-row limit, one merchant at 8 and 64 clients, 64 merchants, batches. */
const BUSY = process.env.BENCH_BUSY !== '0' && MODES.includes('postgres');
/** A narrowed run prints its figures but leaves bench/results/latest.json to full runs. */
const NARROWED = [
  'BENCH_MODES',
  'BENCH_SERVERS',
  'BENCH_ACTIONS',
  'BENCH_CONSOLE',
  'BENCH_BUSY',
  'BENCH_ONLY_BUSY',
  'BENCH_WEBHOOKS',
  'BENCH_ONLY_WEBHOOKS',
  'BENCH_REQUEST_LOG',
  'BENCH_ONLY_REQUEST_LOG',
  'BENCH_ONLY_VOLUME',
  'BENCH_ONLY_FIGURES',
  'BENCH_SETTLEMENT',
  'BENCH_ONLY_SETTLEMENT',
].some((name) => process.env[name]);
/** BENCH_ONLY_BUSY=1: the busy-merchant section alone. */
const ONLY_BUSY = process.env.BENCH_ONLY_BUSY === '1';
/** BENCH_ONLY_WEBHOOKS=1: the cost of events and webhooks alone; BENCH_WEBHOOKS=0 leaves it out. */
const ONLY_WEBHOOKS = process.env.BENCH_ONLY_WEBHOOKS === '1';
/**
 * BENCH_ONLY_VOLUME=1: a busy merchant's history alone (bench/volume.ts; PostgreSQL), at BENCH_VOLUME_SIZE
 * payouts (default 1,000,000) and twice that. It takes far longer than the rest, so a full run includes it
 * only with BENCH_VOLUME=1.
 */
const ONLY_VOLUME = process.env.BENCH_ONLY_VOLUME === '1';
const VOLUME_SIZE = Number(process.env.BENCH_VOLUME_SIZE ?? 1_000_000);
const VOLUME_EMBEDDED_SIZE = Number(process.env.BENCH_VOLUME_EMBEDDED_SIZE ?? 100_000);
/** BENCH_ONLY_FIGURES=1: what the per-day figures' triggers cost withdrawals of a busy merchant (PostgreSQL); BENCH_FIGURES=0 leaves it out. */
const ONLY_FIGURES = process.env.BENCH_ONLY_FIGURES === '1';
/**
 * BENCH_ONLY_SETTLEMENT=1: settlement alone (bench/settlement.ts; PostgreSQL): BENCH_SETTLE_PAYOUTS due payouts
 * (default 1,000,000) settled with no other load, then BENCH_SETTLE_ARRIVAL_S (120) of batches at full speed with
 * settlement on and the drain; BENCH_SETTLEMENT=0 leaves it out.
 */
const ONLY_SETTLEMENT = process.env.BENCH_ONLY_SETTLEMENT === '1';
const ONLY_ONE = ONLY_BUSY || ONLY_WEBHOOKS || ONLY_REQUEST_LOG || ONLY_VOLUME || ONLY_FIGURES || ONLY_SETTLEMENT;
const SETTLEMENT = postgresUrl !== undefined && (ONLY_SETTLEMENT || (!ONLY_ONE && process.env.BENCH_SETTLEMENT !== '0'));
const FIGURES = postgresUrl !== undefined && (ONLY_FIGURES || (!ONLY_ONE && process.env.BENCH_FIGURES !== '0'));
const VOLUME = ONLY_VOLUME || (!ONLY_ONE && process.env.BENCH_VOLUME === '1');
const WEBHOOKS = ONLY_WEBHOOKS || (!ONLY_ONE && process.env.BENCH_WEBHOOKS !== '0');
const REQUEST_LOG = ONLY_REQUEST_LOG || (!ONLY_ONE && process.env.BENCH_REQUEST_LOG !== '0' && KINDS.includes('standalone'));
/**
 * The servers of a mode's rounds: the floor, the standalone server and `npm start`, and, for the request log's cost, the
 * standalone server keeping no log (REQUEST_LOG_RETENTION_DAYS=0; the others keep the default 30 days), paired with
 * `standalone` in the same rounds instead of a case of its own.
 */
type Variant = ServerKind | 'unlogged';
const VARIANTS: Variant[] = [...KINDS, ...(REQUEST_LOG ? (['unlogged'] as const) : [])];

interface Case {
  mode: string;
  server: ServerKind;
  action: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Median over rounds of this round's req/s over the floor's in the same round. */
  ratio: number;
}

type Where = { databaseUrl: string; dataDir?: undefined } | { dataDir: string; databaseUrl?: undefined };

/** A fresh database with the demo merchant and a balance no withdraw run can exhaust. */
async function prepareDatabase(mode: 'postgres' | 'embedded'): Promise<Where> {
  const where =
    mode === 'postgres' ? { databaseUrl: await createSchemaUrl() } : { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-')) };
  const db = await openDb(where);
  const merchant = (await seedDemoMerchant(db, DEMO_KEY))!;
  await db.transaction((tx) => credit(tx, merchant.id, 1_000_000_000_000, 'adjustment', 'bench'));
  await db.close();
  return where;
}

const load = (url: string, action: Action, seconds: number) => drive(url, apiDrive(action), CONNECTIONS, seconds);

/**
 * What the console proxy adds: the same action through the console's route
 * (session cookie -> route -> the API) and directly, one request at a time so
 * that p50 is service time, not queueing, timed to the microsecond.
 * Interleaved, median of rounds.
 */
type MemoryRow = { mode: string; server: ServerKind; idleMiB: number; loadMiB: number };
type ConsoleRow = { mode: string; action: Action; directP50: number; proxyP50: number; addedMs: number };

async function consoleOverhead(mode: string, url: string): Promise<ConsoleRow[]> {
  const cookie = await signIn(url);
  const rows: ConsoleRow[] = [];
  for (const action of ACTIONS) {
    const p50 = { direct: [] as number[], proxy: [] as number[] };
    // Three rounds of 1 s after a warm-up: one request at a time is steadier than a loaded run (hundreds of
    // requests per p50), and the whole bench must stay under 10 minutes.
    for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
      for (const via of shuffled(['direct', 'proxy'] as const)) {
        const d = via === 'direct' ? apiDrive(action) : consoleDrive(action, cookie);
        if (round === 0) await sequentialP50(url, d, WARM_UP_S);
        p50[via].push(await sequentialP50(url, d, 1));
      }
    }
    const direct = round2(median(p50.direct));
    const proxy = round2(median(p50.proxy));
    rows.push({ mode, action, directP50: direct, proxyP50: proxy, addedMs: round2(proxy - direct) });
    process.stdout.write(
      `  ${mode.padEnd(8)} console proxy ${action.padEnd(11)} p50 ${direct} ms direct, ${proxy} ms through the console\n`,
    );
  }
  return rows;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const shuffled = <T>(xs: T[]) =>
  xs
    .map((x) => [Math.random(), x] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);

/** Wall seconds of each section of the run, printed and kept in latest.json: where the bench's minutes go. */
const sections: { name: string; seconds: number }[] = [];
async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    sections.push({ name, seconds: Math.round((performance.now() - started) / 100) / 10 });
  }
}

/** The servers of one database mode side by side (VARIANTS), each action in interleaved rounds; then the console's overhead. */
async function serverCases(
  mode: 'postgres' | 'embedded',
  distDir: string,
  out: { cases: Case[]; memory: MemoryRow[]; proxy: ConsoleRow[]; requestLog: RequestLogCostFigures[] },
) {
  // The servers of a mode run side by side, each on its own fresh database.
  const servers = new Map<Variant, { server: ServerProcess; where: Where; idle: number; peak: number }>();
  for (const variant of VARIANTS) {
    const where = await prepareDatabase(mode);
    const env = { LOG_LEVEL: 'warn', REQUEST_LOG_RETENTION_DAYS: variant === 'unlogged' ? '0' : '30' };
    const server = await new ServerProcess({ kind: variant === 'unlogged' ? 'standalone' : variant, ...where, distDir, env }).start();
    servers.set(variant, { server, where, idle: 0, peak: 0 });
  }
  await new Promise((r) => setTimeout(r, 1500));
  for (const s of servers.values()) s.idle = s.peak = s.server.rssMiB();

  const rounds = new Map<string, autocannon.Result[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const action of ACTIONS) {
      for (const variant of shuffled(VARIANTS)) {
        const s = servers.get(variant)!;
        const sampler = setInterval(() => (s.peak = Math.max(s.peak, s.server.rssMiB())), 250);
        if (round === 0) await load(s.server.url, action, WARM_UP_S);
        const r = await load(s.server.url, action, DURATION_S);
        clearInterval(sampler);
        rounds.set(`${variant} ${action}`, [...(rounds.get(`${variant} ${action}`) ?? []), r]);
        process.stdout.write(
          `  ${mode.padEnd(8)} round ${round + 1} ${variant.padEnd(10)} ${action.padEnd(11)} ${Math.round(r.requests.average)} req/s\n`,
        );
      }
    }
  }
  if (CONSOLE) out.proxy.push(...(await timed(`console proxy, ${mode}`, () => consoleOverhead(mode, servers.get('next')!.server.url))));
  for (const kind of KINDS) {
    for (const action of ACTIONS) {
      const rs = rounds.get(`${kind} ${action}`)!;
      const floor = rounds.get(`floor ${action}`)!;
      out.cases.push({
        mode,
        server: kind,
        action,
        // Paired: each round's req/s over the floor's in the same round (seconds apart), then the median.
        ratio: median(rs.map((r, i) => r.requests.average / floor[i]!.requests.average)),
        rps: median(rs.map((r) => r.requests.average)),
        p50: median(rs.map((r) => r.latency.p50)),
        p99: median(rs.map((r) => r.latency.p99)),
        non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
        errors: rs.reduce((n, r) => n + r.errors, 0),
      });
    }
    const s = servers.get(kind)!;
    out.memory.push({ mode, server: kind, idleMiB: Math.round(s.idle), loadMiB: Math.round(s.peak) });
  }
  for (const s of servers.values()) await s.server.stop();
  if (REQUEST_LOG) {
    out.requestLog.push(...requestLogFigures(mode, ACTIONS, rounds));
    // The servers flushed on stop: the logged one holds a row per measured request (warm-ups too), the other none.
    const measured = ACTIONS.flatMap((a) => rounds.get(`standalone ${a}`)!).reduce((n, r) => n + r.requests.total, 0);
    await requestLogRows(mode, servers.get('standalone')!.where, servers.get('unlogged')!.where, measured);
  }
  for (const s of servers.values()) if (s.where.dataDir) fs.rmSync(s.where.dataDir, { recursive: true, force: true });
}

async function main() {
  const runStarted = performance.now();
  const distDir = await timed('next build (when stale)', () => ensureNextBuild());
  const out = { cases: [] as Case[], memory: [] as MemoryRow[], proxy: [] as ConsoleRow[], requestLog: [] as RequestLogCostFigures[] };
  for (const mode of ONLY_ONE && !ONLY_REQUEST_LOG ? [] : MODES)
    await timed(`servers against the floor, ${mode}`, () => serverCases(mode, distDir, out));
  const { cases, memory, proxy, requestLog } = out;
  const busy =
    (BUSY && !ONLY_ONE) || ONLY_BUSY
      ? await timed('busy merchant', async () => busyMerchant(await createSchemaUrl(), distDir, DURATION_S, Math.min(ROUNDS, 3)))
      : undefined;
  const webhooks: WebhookCostFigures[] = [];
  for (const mode of WEBHOOKS ? MODES : [])
    webhooks.push(
      await timed(`events and webhooks, ${mode}`, async () =>
        webhookCost(mode, await prepareDatabase(mode), distDir, CONNECTIONS, DURATION_S, ROUNDS),
      ),
    );
  const figures = FIGURES
    ? await timed('per-day figures', () => figuresCost(distDir, { connections: [8, 64], seconds: DURATION_S, rounds: ROUNDS }))
    : [];
  const settlement: SettlementFigures | undefined = SETTLEMENT
    ? await timed('settlement', () =>
        settlementBench({
          backlog: Number(process.env.BENCH_SETTLE_PAYOUTS ?? 1_000_000),
          instances: Number(process.env.BENCH_SETTLE_INSTANCES ?? 2),
          arrivalSeconds: Number(process.env.BENCH_SETTLE_ARRIVAL_S ?? 120),
          senders: Number(process.env.BENCH_SETTLE_SENDERS ?? 4),
        }),
      )
    : undefined;
  const volume: VolumeFigures[] = [];
  if (VOLUME && MODES.includes('postgres'))
    volume.push(await timed('volume, postgres', async () => volumeBench({ databaseUrl: await createSchemaUrl() }, distDir, VOLUME_SIZE)));
  // The embedded database at its own size (BENCH_VOLUME_EMBEDDED_SIZE, default 100,000; 0 leaves it out), once.
  if (VOLUME && MODES.includes('embedded') && VOLUME_EMBEDDED_SIZE > 0) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-volume-'));
    volume.push(await timed('volume, embedded', () => volumeBench({ dataDir }, distDir, VOLUME_EMBEDDED_SIZE, true)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await dropSchemas();
  sections.push({ name: 'the whole run', seconds: Math.round((performance.now() - runStarted) / 100) / 10 });
  report(cases, memory, proxy, busy, webhooks, requestLog, volume, figures, settlement);
}

/** `next` is `npm start`'s server: the API ahead of Next's router, at the standalone server's speed. */
const TARGETS: Record<string, number> = {
  'standalone withdraw': 0.9,
  'standalone get_balance': 0.8,
  'next withdraw': 0.9,
  'next get_balance': 0.9,
};

function report(
  cases: Case[],
  memory: MemoryRow[],
  proxy: ConsoleRow[],
  busy?: BusyMerchantFigures,
  webhooks: WebhookCostFigures[] = [],
  requestLog: RequestLogCostFigures[] = [],
  volume: VolumeFigures[] = [],
  figures: FiguresCostFigures[] = [],
  settlement?: SettlementFigures,
) {
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
  const lines = [
    `\nBenchmark: ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION_S} s per case (after a ${WARM_UP_S} s warm-up); ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}`,
    '| database | server | action | req/s | p50 ms | p99 ms | non-2xx | ratio to floor (paired by round) | target |',
    '|---|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const c of cases) {
    const target = TARGETS[`${c.server} ${c.action}`];
    const verdict = target === undefined ? '' : `${Math.round(target * 100)}%: ${c.ratio >= target ? 'met' : 'NOT met'}`;
    lines.push(
      `| ${c.mode} | ${c.server} | ${c.action} | ${Math.round(c.rps)} | ${c.p50} | ${c.p99} | ${c.non2xx + c.errors} | ${Math.round(c.ratio * 100)}% | ${verdict} |`,
    );
  }
  lines.push(
    '',
    'Console proxy (Next, one connection: p50 through /api/balance and /api/payouts vs the API directly; target: adds at most 2 ms)',
  );
  lines.push('| database | action | direct p50 ms | through the console p50 ms | added ms | target |', '|---|---|---:|---:|---:|---|');
  for (const p of proxy)
    lines.push(`| ${p.mode} | ${p.action} | ${p.directP50} | ${p.proxyP50} | ${p.addedMs} | ${p.addedMs <= 2 ? 'met' : 'NOT met'} |`);
  lines.push('', '| database | server | RSS idle MiB | RSS peak under load MiB |', '|---|---|---:|---:|');
  for (const m of memory) lines.push(`| ${m.mode} | ${m.server} | ${m.idleMiB} | ${m.loadMiB} |`);
  if (busy) lines.push('', ...busyMerchantReport(busy));
  if (webhooks.length > 0) {
    lines.push(
      '',
      'Events and webhooks (standalone server; withdrawals of a merchant with one endpoint subscribed to every event, against one without, paired rounds)',
    );
    lines.push(
      '| database | withdraw/s without endpoints | withdraw/s with one endpoint | ratio (paired by round) | deliveries/s during the load | deliveries/s after it (backlog) | target |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const w of webhooks) {
      lines.push(
        `| ${w.mode} | ${w.withoutEndpoint} | ${w.withEndpoint} | ${Math.round(w.ratio * 100)}% | ${w.deliveredDuringLoadPerSecond} | ${w.drainPerSecond} | 90%: ${w.ratio >= 0.9 ? 'met' : 'NOT met'} |`,
      );
    }
  }
  if (requestLog.length > 0) {
    lines.push(
      '',
      'The request log (standalone servers on databases prepared alike, in the rounds above: REQUEST_LOG_RETENTION_DAYS=30, the default, against 0, no log; paired by round)',
    );
    lines.push(
      '| database | action | req/s without the log | req/s with it | ratio (paired by round) | target |',
      '|---|---|---:|---:|---:|---|',
    );
    for (const r of requestLog)
      lines.push(
        `| ${r.mode} | ${r.action} | ${r.withoutLog} | ${r.withLog} | ${Math.round(r.ratio * 100)}% | 90%: ${r.ratio >= 0.9 ? 'met' : 'NOT met'} |`,
      );
  }
  if (figures.length > 0) {
    lines.push(
      '',
      'Per-day figures (standalone servers, PostgreSQL: withdrawals of one merchant, with the figures triggers against without them, paired rounds)',
    );
    lines.push('| connections | withdraw/s without | withdraw/s with | ratio (paired by round) | target |', '|---:|---:|---:|---:|---|');
    for (const f of figures)
      lines.push(
        `| ${f.connections} | ${f.withoutFigures} | ${f.withFigures} | ${Math.round(f.ratio * 100)}% | 95%: ${f.ratio >= 0.95 ? 'met' : 'NOT met'} |`,
      );
  }
  if (settlement) lines.push('', ...settlementReport(settlement));
  for (const v of volume) lines.push('', ...volumeReport(v));
  lines.push('', "Where the run's time went (wall seconds; target for the whole `npm run bench`: ≤ 600)", '| section | s |', '|---|---:|');
  for (const x of sections) lines.push(`| ${x.name} | ${x.seconds} |`);
  process.stdout.write(lines.join('\n') + '\n');
  if (volume.length > 0)
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/volume.json'),
      JSON.stringify({ date: new Date().toISOString(), machine, volume }, null, 2) + '\n',
    );
  if (NARROWED) return void process.stdout.write('\nA narrowed run: bench/results/latest.json left as it was.\n');
  const out = path.join(ROOT, 'bench/results/latest.json');
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        connections: CONNECTIONS,
        durationSeconds: DURATION_S,
        rounds: ROUNDS,
        cases,
        consoleProxy: proxy,
        memory,
        busyMerchant: busy,
        webhooks,
        requestLog,
        figures,
        settlement,
        sections,
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`\nWritten to ${path.relative(process.cwd(), out)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error?.stack ?? error}\n`);
  process.exit(1);
});
