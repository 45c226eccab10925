// Settlement at the speed of intake (PostgreSQL; BENCH_ONLY_SETTLEMENT=1 npm run bench, or npx tsx bench/settlement.ts):
// 1. a backlog of BENCH_SETTLE_PAYOUTS due payouts (default 1,000,000; 2% failing, 20 merchants) written set-based
//    straight into the tables (through the triggers), then settled by BENCH_SETTLE_INSTANCES settlement loops
//    (default 2, each its own pool, as two instances would) with no other load: payouts/s, CPU per payout (node and
//    the PostgreSQL backends), the share of HOT updates of payouts;
// 2. batches of 1,000 sent through the API at full speed (BENCH_SETTLE_SENDERS in flight) for BENCH_SETTLE_ARRIVAL_S
//    (default 120 s) with the settlement loops running: the backlog left when arrival stops, and its drain time.
import { randomUUID } from 'node:crypto';
import { openDb } from '../lib/db/open-db';
import type { Db } from '../lib/db/types';
import { settleDuePayouts } from '../lib/payments/payouts/settlement';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { startInProcessApi } from '../testing/in-process-api';
import { cpuReader, cpuSpent } from './process-cpu';

const APP = 'settlement-bench';

export interface SettlementFigures {
  backlog: number;
  instances: number;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The updates of this schema's payouts counted so far, and how many of them were HOT (pg_stat_user_tables). */
export async function payoutUpdates(db: Db) {
  const [r] = await db.query<{ upd: string; hot: string }>(
    `SELECT COALESCE(sum(n_tup_upd), 0) AS upd, COALESCE(sum(n_tup_hot_upd), 0) AS hot FROM pg_stat_user_tables
     WHERE relname = 'payouts' AND schemaname = current_schema()`,
  );
  return { upd: Number(r!.upd), hot: Number(r!.hot) };
}

/**
 * The updates of payouts counted so far, once at least `atLeast` are. A backend reports its statistics when it exits,
 * so the settlers' pools are closed first; an idle one would wait up to 10 s (PGSTAT_IDLE_INTERVAL).
 */
async function hotUpdates(db: Db, atLeast: number) {
  const until = performance.now() + 12_000;
  for (;;) {
    const counts = await payoutUpdates(db);
    if (counts.upd >= atLeast || performance.now() > until) return counts;
    await sleep(100);
  }
}

const dueCount = async (db: Db) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payout_states WHERE state = 'pending' AND due_at <= now()`))[0]!.n;

/** Every connection of the settlers' pools open, so that the CPU window counts their backends from its start. */
const warm = (dbs: Db[]) => Promise.all(dbs.flatMap((d) => Array.from({ length: 4 }, () => d.query('SELECT pg_sleep(0.05)'))));

/** Settlement loops until `stop()` says so and nothing is due (or, with `untilEmpty`, as soon as nothing is due). */
function settlers(dbs: Db[], stop: () => boolean) {
  let settled = 0;
  const loops = dbs.map(async (db) => {
    for (;;) {
      const r = await settleDuePayouts(db, { batchSize: 1000, maxBatches: 10 });
      settled += r.paid + r.failed;
      if (r.paid + r.failed === 0) {
        if (stop()) return;
        await sleep(50);
      }
    }
  });
  return { done: Promise.all(loops), settled: () => settled };
}

/**
 * `n` due payouts of `merchants` merchants, reserved in their balances: written in statements of 50,000 by two writers at
 * once (one per core), then the balances once.
 */
export async function writeBacklog(db: Db, n: number, merchants: number) {
  await db.query(
    `INSERT INTO merchants (id, name, currency) SELECT 'acct_bench' || m, 'Bench ' || m, 'IDR' FROM generate_series(1, $1) m`,
    [merchants],
  );
  await db.query(
    `INSERT INTO balances (merchant_id, currency, available, pending_payouts)
     SELECT 'acct_bench' || m, 'IDR', 0, 0 FROM generate_series(1, $1) m`,
    [merchants],
  );
  const chunks = Array.from({ length: Math.ceil(n / 50_000) }, (_, i) => [i * 50_000 + 1, Math.min(n, (i + 1) * 50_000)] as const);
  const writer = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift())
      await db.query(
        `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, reference)
         SELECT 'po_bench' || g, 'acct_bench' || (g % $3 + 1), 10000 + g % 1000, 'IDR', 'BCA',
                CASE WHEN g % 50 = 0 THEN '4000000002' ELSE lpad(((g::bigint * 7919) % 10000000000)::text, 10, '0') END,
                'pending', now() - interval '1 second', 'bench-' || g
         FROM generate_series($1::int, $2::int) g`,
        [chunk[0], chunk[1], merchants],
      );
  };
  await Promise.all([writer(), writer()]);
  await db.query(
    `UPDATE balances b SET pending_payouts = s.total
     FROM (SELECT merchant_id, sum(amount) AS total FROM payouts GROUP BY 1) s WHERE b.merchant_id = s.merchant_id`,
  );
  await vacuumSchema(db);
}

/** VACUUM ANALYZE of this schema's tables: a bare VACUUM would walk every schema of the shared database. */
export async function vacuumSchema(db: Db) {
  const tables = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`);
  await db.exec(`VACUUM ANALYZE ${tables.map((t) => `"${t.name}"`).join(', ')}`);
}

export async function settlementBench(opts: { backlog: number; instances: number; arrivalSeconds: number; senders: number }) {
  const url = new URL(await createSchemaUrl());
  url.searchParams.set('application_name', APP);
  const instances = () => Promise.all(Array.from({ length: opts.instances }, () => openDb({ databaseUrl: url.toString(), poolSize: 4 })));
  const db = await openDb({ databaseUrl: url.toString(), poolSize: 4 });
  let dbs = await instances();
  const cpu = await cpuReader(url.toString(), APP);
  const f = { backlog: opts.backlog, instances: opts.instances, arrivalSeconds: opts.arrivalSeconds } as SettlementFigures;
  try {
    // 1. The backlog alone.
    await writeBacklog(db, opts.backlog, Number(process.env.BENCH_SETTLE_MERCHANTS ?? 20));
    // Nothing has updated a payout of this new schema yet: the inserts are the backlog's.
    const upd0 = await hotUpdates(db, 0);
    await warm(dbs);
    const cpu0 = await cpu.read(process.pid);
    const started = performance.now();
    const alone = settlers(dbs, () => true);
    await alone.done;
    f.seconds = (performance.now() - started) / 1000;
    const spent = cpuSpent(cpu0, await cpu.read(process.pid));
    const closing = dbs;
    dbs = []; // closed once, whatever throws next
    await Promise.all(closing.map((d) => d.close()));
    const upd1 = await hotUpdates(db, upd0.upd + opts.backlog);
    dbs = await instances();
    await warm(dbs);
    if (alone.settled() !== opts.backlog) throw new Error(`settled ${alone.settled()} of ${opts.backlog}`);
    f.perSecond = opts.backlog / f.seconds;
    f.nodeCpuUsPerPayout = (spent.serverMs * 1000) / opts.backlog;
    f.databaseCpuUsPerPayout = (spent.databaseMs * 1000) / opts.backlog;
    f.updates = upd1.upd - upd0.upd;
    f.hotShare = (upd1.hot - upd0.hot) / Math.max(1, f.updates);

    // 2. Batches at full speed with settlement on, then the drain.
    const api = await startInProcessApi(db, {
      openingBalance: 1_000_000_000_000_000,
      merchantName: 'Busy',
      settings: { settlementDelaySeconds: 0 },
    });
    let arriving = true;
    const loops = settlers(dbs, () => !arriving);
    let arrived = 0;
    const arrivalStart = performance.now();
    const senders = Array.from({ length: opts.senders }, async (_, s) => {
      for (let b = 0; performance.now() - arrivalStart < opts.arrivalSeconds * 1000; b++) {
        const payouts = Array.from({ length: 1000 }, (_, i) => ({
          amount: 10_000 + i,
          bank_code: 'BCA',
          account_number: i % 50 === 0 ? '4000000002' : String(1_000_000_000 + ((((s * 100_000 + b) * 1000 + i) * 7919) % 8_999_999_999)),
        }));
        const res = await api.call({ action: 'create_payout_batch', payouts }, randomUUID());
        if (res.status !== 200) throw new Error(res.text);
        arrived += 1000;
      }
    });
    await Promise.all(senders);
    const arrivalEnd = performance.now();
    f.arrived = arrived;
    f.arrivalPerSecond = arrived / ((arrivalEnd - arrivalStart) / 1000);
    f.settledDuringArrival = loops.settled();
    f.backlogAtEnd = await dueCount(db);
    arriving = false;
    await loops.done;
    f.drainSeconds = (performance.now() - arrivalEnd) / 1000;
    await api.close();
    return f;
  } finally {
    await cpu.close();
    await Promise.all([db, ...dbs].map((d) => d.close()));
  }
}

export function settlementReport(f: SettlementFigures): string[] {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return [
    `### Settlement (PostgreSQL, ${f.instances} settlement instances)`,
    '',
    '| case | figure | target |',
    '|---|---:|---|',
    `| ${n(f.backlog)} due payouts settled alone | ${n(f.perSecond)} payouts/s (${f.seconds.toFixed(1)} s) | ≥ 5,000/s: ${f.perSecond >= 5000 ? 'met' : 'NOT met'} |`,
    `| CPU per settled payout | node ${n(f.nodeCpuUsPerPayout)} µs, PostgreSQL ${n(f.databaseCpuUsPerPayout)} µs | |`,
    `| HOT updates of payouts during it | ${(100 * f.hotShare).toFixed(1)}% of ${n(f.updates)} | no target, reported |`,
    `| batches at full speed for ${f.arrivalSeconds} s | ${n(f.arrived)} payouts (${n(f.arrivalPerSecond)}/s), ${n(f.settledDuringArrival)} settled meanwhile | |`,
    `| backlog when arrival stopped, its drain | ${n(f.backlogAtEnd)} payouts, ${f.drainSeconds.toFixed(1)} s | ≤ 120 s: ${f.drainSeconds <= 120 ? 'met' : 'NOT met'} |`,
    '',
  ];
}

if (process.argv[1]?.endsWith('/bench/settlement.ts')) {
  settlementBench({
    backlog: Number(process.env.BENCH_SETTLE_PAYOUTS ?? 1_000_000),
    instances: Number(process.env.BENCH_SETTLE_INSTANCES ?? 2),
    arrivalSeconds: Number(process.env.BENCH_SETTLE_ARRIVAL_S ?? 120),
    senders: Number(process.env.BENCH_SETTLE_SENDERS ?? 4),
  })
    .then(async (f) => {
      await dropSchemas();
      process.stdout.write(`${settlementReport(f).join('\n')}\n${JSON.stringify(f)}\n`);
      process.exit(0);
    })
    .catch((error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    });
}
