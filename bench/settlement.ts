// Settlement at the speed of intake, through ONE `npm start` server on PostgreSQL (BENCH_ONLY_SETTLEMENT=1 npm run bench,
// or npx tsx bench/settlement.ts): the server's own settlement job does the work, nothing settles beside it.
// 1. a backlog of BENCH_SETTLE_PAYOUTS due payouts (default 1,000,000; 2% failing, 20 merchants) written set-based
//    straight into the tables (through the triggers) before the server starts; from the moment it answers, the
//    time until nothing is due: payouts/s, CPU per payout (the server process and its PostgreSQL backends), the
//    share of HOT updates of payouts;
// 2. batches of 1,000 sent through its API at full speed (BENCH_SETTLE_SENDERS in flight) for BENCH_SETTLE_ARRIVAL_S
//    (default 120 s), settlement running in the same process: the backlog left when arrival stops, and its drain time.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import type { Db } from '../lib/db/types';
import { credit } from '../lib/payments/ledger/ledger';
import { seedDemoMerchant } from '../lib/payments/merchants/merchants';
import { API_PATH } from '../testing/api-path';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { ensureNextBuild } from '../testing/next-build';
import { DEMO_KEY, ServerProcess } from '../testing/server-process';
import { cpuReader, cpuSpent } from './process-cpu';
import { runProvenance, type RunProvenance } from './run-provenance';
import { payoutUpdates, vacuumSchema, writeBacklog } from './settlement-backlog';

export interface SettlementFigures {
  backlog: number;
  /** What settled: 'npm start' (one server process, its own job). */
  server: string;
  /** Due payouts when the server first answered (the ones it settled before are not counted either way). */
  dueAtStart: number;
  seconds: number;
  perSecond: number;
  nodeCpuUsPerPayout: number;
  databaseCpuUsPerPayout: number;
  hotShare: number;
  updates: number;
  arrivalSeconds: number;
  arrived: number;
  arrivalPerSecond: number;
  settledDuringArrival: number;
  backlogAtEnd: number;
  drainSeconds: number;
}

const APP = 'settlement-bench';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** bench/results/settlement.json, rendered on docs/benchmarks.md: written by every run that measured it. */
export const SETTLEMENT_RESULTS = path.join(__dirname, 'results/settlement.json');
export function writeSettlementResults(figures: SettlementFigures, provenance: RunProvenance): void {
  fs.writeFileSync(SETTLEMENT_RESULTS, JSON.stringify({ ...provenance, ...figures }, null, 2) + '\n');
}

const dueCount = async (db: Db) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payout_states WHERE state = 'pending' AND due_at <= now()`))[0]!.n;
const anyDue = async (db: Db) =>
  (await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM payout_states WHERE state = 'pending' AND due_at <= now()) AS any`))[0]!
    .any;

/** Polls (cheaply) until nothing is due; the wall time it took. */
async function untilNothingDue(db: Db, maxSeconds: number) {
  const started = performance.now();
  while (await anyDue(db)) {
    if (performance.now() - started > maxSeconds * 1000) throw new Error(`settlement: payouts still due after ${maxSeconds} s`);
    await sleep(100);
  }
  return (performance.now() - started) / 1000;
}

/** The updates of payouts counted so far, once at least `atLeast` are (a busy backend reports its counts within a second, an idle one within 10). */
async function hotUpdates(db: Db, atLeast: number) {
  const until = performance.now() + 12_000;
  for (;;) {
    const counts = await payoutUpdates(db);
    if (counts.upd >= atLeast || performance.now() > until) return counts;
    await sleep(100);
  }
}

async function post(base: string, body: unknown) {
  const res = await fetch(base + API_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_KEY}`, 'x-service-idempotency': randomUUID() },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status}: ${text.slice(0, 300)}`);
}

export async function settlementBench(opts: {
  backlog: number;
  arrivalSeconds: number;
  senders: number;
  /** 'next': `npm start`'s script (the default); 'standalone': `npm run start:api`, the same jobs without Next. */
  kind?: 'next' | 'standalone';
  distDir?: string;
}) {
  const kind = opts.kind ?? 'next';
  const plain = await createSchemaUrl();
  const url = new URL(plain);
  url.searchParams.set('application_name', APP);
  const db = await openDb({ databaseUrl: plain, poolSize: 2 });
  const cpu = await cpuReader(plain, APP);
  const f = { backlog: opts.backlog, server: kind === 'next' ? 'npm start' : 'npm run start:api', arrivalSeconds: opts.arrivalSeconds };
  let server: ServerProcess | undefined;
  try {
    const merchant = (await seedDemoMerchant(db, DEMO_KEY))!;
    await db.transaction((tx) => credit(tx, merchant.id, 4_000_000_000_000_000, 'adjustment', 'bench'));
    await writeBacklog(db, opts.backlog, Number(process.env.BENCH_SETTLE_MERCHANTS ?? 20));
    const upd0 = await hotUpdates(db, 0);

    // 1. The backlog alone: the server's own job from the moment the server answers.
    server = new ServerProcess({
      kind,
      databaseUrl: url.toString(),
      distDir: kind === 'next' ? (opts.distDir ?? (await ensureNextBuild())) : undefined,
      env: { LOG_LEVEL: 'warn', SETTLEMENT_DELAY_SECONDS: '0' },
    });
    await server.start();
    const cpu0 = await cpu.read(server.pid!);
    const dueAtStart = await dueCount(db);
    const seconds = await untilNothingDue(db, 900);
    const cpu1 = await cpu.read(server.pid!);
    const spent = cpuSpent(cpu0, cpu1);
    // The pool opens its connections as the job needs them: a backend that connected during the window counts whole.
    for (const [pid, ms] of cpu1.backends) if (!cpu0.backends.has(pid)) spent.databaseMs += ms;
    const upd1 = await hotUpdates(db, upd0.upd + opts.backlog);
    const alone = {
      dueAtStart,
      seconds,
      perSecond: dueAtStart / seconds,
      nodeCpuUsPerPayout: (spent.serverMs * 1000) / dueAtStart,
      databaseCpuUsPerPayout: (spent.databaseMs * 1000) / dueAtStart,
      updates: upd1.upd - upd0.upd,
      hotShare: (upd1.hot - upd0.hot) / Math.max(1, upd1.upd - upd0.upd),
    };

    // 2. Batches at full speed through the same server, its settlement running, then the drain.
    await vacuumSchema(db);
    let arrived = 0;
    const arrivalStart = performance.now();
    const senders = Array.from({ length: opts.senders }, async (_, s) => {
      for (let b = 0; performance.now() - arrivalStart < opts.arrivalSeconds * 1000; b++) {
        const payouts = Array.from({ length: 1000 }, (_, i) => ({
          amount: 10_000 + i,
          bank_code: 'BCA',
          account_number: i % 50 === 0 ? '4000000002' : String(1_000_000_000 + ((((s * 100_000 + b) * 1000 + i) * 7919) % 8_999_999_999)),
        }));
        await post(server!.url, { action: 'create_payout_batch', payouts });
        arrived += 1000;
      }
    });
    await Promise.all(senders);
    const arrivalEnd = performance.now();
    const backlogAtEnd = await dueCount(db);
    await untilNothingDue(db, 900);
    const drainSeconds = (performance.now() - arrivalEnd) / 1000;
    return {
      ...f,
      ...alone,
      arrived,
      arrivalPerSecond: arrived / ((arrivalEnd - arrivalStart) / 1000),
      settledDuringArrival: arrived - backlogAtEnd,
      backlogAtEnd,
      drainSeconds,
    } as SettlementFigures;
  } finally {
    await server?.stop();
    await cpu.close();
    await db.close();
  }
}

export function settlementReport(f: SettlementFigures): string[] {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return [
    `### Settlement (PostgreSQL, one \`${f.server}\`: the server's own settlement job)`,
    '',
    '| case | figure | target |',
    '|---|---:|---|',
    `| ${n(f.dueAtStart)} due payouts settled alone | ${n(f.perSecond)} payouts/s (${f.seconds.toFixed(1)} s) | ≥ 5,000/s: ${f.perSecond >= 5000 ? 'met' : 'NOT met'} |`,
    `| CPU per settled payout | node ${n(f.nodeCpuUsPerPayout)} µs, PostgreSQL ${n(f.databaseCpuUsPerPayout)} µs | |`,
    `| HOT updates of payouts during it | ${(100 * f.hotShare).toFixed(1)}% of ${n(f.updates)} | ≥ 90%: ${f.hotShare >= 0.9 ? 'met' : 'NOT met'} |`,
    `| batches at full speed for ${f.arrivalSeconds} s | ${n(f.arrived)} payouts (${n(f.arrivalPerSecond)}/s), ${n(f.settledDuringArrival)} settled meanwhile | |`,
    `| backlog when arrival stopped, its drain | ${n(f.backlogAtEnd)} payouts, ${f.drainSeconds.toFixed(1)} s | ≤ 120 s: ${f.drainSeconds <= 120 ? 'met' : 'NOT met'} |`,
    '',
  ];
}

if (process.argv[1]?.endsWith('/bench/settlement.ts')) {
  settlementBench({
    backlog: Number(process.env.BENCH_SETTLE_PAYOUTS ?? 1_000_000),
    arrivalSeconds: Number(process.env.BENCH_SETTLE_ARRIVAL_S ?? 120),
    senders: Number(process.env.BENCH_SETTLE_SENDERS ?? 4),
    kind: process.env.BENCH_SETTLE_SERVER === 'standalone' ? 'standalone' : 'next',
  })
    .then(async (f) => {
      await dropSchemas();
      if (process.env.BENCH_SETTLE_WRITE === '1') writeSettlementResults(f, await runProvenance(process.env.DATABASE_URL));
      process.stdout.write(`${settlementReport(f).join('\n')}\n${JSON.stringify(f)}\n`);
      process.exit(0);
    })
    .catch((error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    });
}
