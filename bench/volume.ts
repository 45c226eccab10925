// A busy merchant's history (BENCH_ONLY_VOLUME=1 npm run bench): builds BENCH_VOLUME_SIZE payouts (default
// 1,000,000) through the API of an `npm start` server on PostgreSQL (batches of 1,000 with a share failed,
// checkout payments, webhook endpoints with deliveries, restricted keys), in one of three mixes of statuses
// (`settled`: every payout settled; `pending`: settlement a day away, every payout pending; `half`: half settled
// with a tenth of all payouts failed, half pending), times every read action and console data route without
// planner statistics (right after the load, as a server whose autovacuum is off has it) and with them, then
// builds as many again and times them again: p50, p99, growth 1x -> 2x, bytes per payout on disk, settlement
// rate while batches arrive.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { openDb } from '../lib/db/open-db';
import { credit } from '../lib/payments/ledger/ledger';
import { seedDemoMerchant } from '../lib/payments/merchants/merchants';
import { API_PATH } from '../testing/api-path';
import { signInToConsole } from '../testing/console-session';
import { DEMO_KEY, ServerProcess } from '../testing/server-process';
import { analyzeSchema } from '../testing/volume-data';
import { activitySnapshot, activitySpent, type ActivitySpent } from './background-activity';
import { FLOOR } from './volume-floors';

const BATCH = 1000;
/** Batches in flight at once while building. */
const IN_FLIGHT = Number(process.env.BENCH_VOLUME_IN_FLIGHT ?? 4);
/** Timed rounds (every read once each) per size. */
const REPS = Number(process.env.BENCH_VOLUME_REPS ?? 100);
const FAILING = '4000000002';
/**
 * The longest wait for settlement to drain after a build (BENCH_VOLUME_DRAIN_S): long enough that the settled
 * mix is timed settled (at 120 s, 238,000 of its first million were still settling when the reads were timed).
 */
const DRAIN_MAX_S = Number(process.env.BENCH_VOLUME_DRAIN_S ?? 900);
/** Rows of the whole export read for its rate (it streams any length; the rate is what the bench reports). */
const EXPORT_SAMPLE_ROWS = Number(process.env.BENCH_VOLUME_EXPORT_ROWS ?? 100_000);
const SEARCHED = '5550001234';
/** The bench's own statements (ANALYZE of millions of rows, sizes, statistics) may run for minutes on a busy machine. */
const LONG = { statementTimeoutMs: 600_000 };
const METRICS_TOKEN = randomUUID();

export interface ReadFigure {
  name: string;
  /** floor: timed in the same rounds, no target; the others' growth is judged net of the floor's. */
  kind: 'action' | 'summary' | 'console' | 'floor';
  p50: number[];
  p99: number[];
  /** A whole file's lines at each size (its page is the file: growth is judged per line). */
  lines?: number[];
}

/** The statuses of the history: see the top of this file. */
export type VolumeMix = 'settled' | 'pending' | 'half';
/** The settlement delay that keeps a payout pending through the reads. */
const A_DAY_S = 86_400;

export interface VolumeFigures {
  mode: 'postgres' | 'embedded';
  /** Absent in results from before the mixes: `settled`. */
  mix?: VolumeMix;
  /** The same reads timed with no planner statistics (PostgreSQL), before `reads`, timed after ANALYZE. */
  readsWithoutStatistics?: ReadFigure[];
  /** Tables that had statistics by the end of the reads without them (none: the app's own ANALYZE is off meanwhile). */
  analyzedDuringReadsWithoutStatistics?: string[][];
  size: number;
  sizes: number[];
  buildSeconds: number[];
  payoutsPerSecond: number[];
  settledPerSecondDuringBuild: number[];
  settleDrainSeconds: number[];
  /** Payouts still pending when the reads were timed (the drain wait is bounded). */
  pendingWhenTimed: number[];
  bytesPerPayout: number[];
  /** The whole export of every payout: rows per second. */
  exportRowsPerSecond: number[];
  /** The statement's lines of this month (every balance transaction) as CSV: lines per second. */
  statementLinesPerSecond: number[];
  tables: Record<string, number>[];
  reads: ReadFigure[];
  /** Rounds of every read in turn per size (absent before the rounds: 40 sequential requests per read). */
  rounds?: number;
  /** What ran beside the reads, per size (bench/background-activity.ts): without statistics, then with them. */
  activityWithoutStatistics?: ActivitySpent[];
  activity?: ActivitySpent[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One HTTP request, timed from send to the last byte of the answer (or to its first byte, then dropped). */
function timed(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; firstByte?: boolean; countLines?: boolean; maxLines?: number },
): Promise<{ ms: number; status: number; text: string; lines?: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: init.method, headers: init.headers, agent: init.firstByte ? false : agent }, (res) => {
      const chunks: Buffer[] = [];
      if (init.firstByte) {
        res.once('data', (c: Buffer) => {
          resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, text: c.toString() });
          res.destroy();
        });
        res.once('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, text: '' }));
        return;
      }
      let lines = 0;
      res.on('data', (c: Buffer) => {
        if (!init.countLines) return void chunks.push(c);
        for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
        if (init.maxLines !== undefined && lines >= init.maxLines) {
          resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, text: '', lines });
          res.destroy();
        }
      });
      res.once('end', () =>
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), lines }),
      );
    });
    req.once('error', reject).end(init.body);
  });
}

const api = (base: string, key: string, body: Record<string, unknown>, idem?: string) =>
  timed(base + API_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...(idem ? { 'x-service-idempotency': idem } : {}) },
    body: JSON.stringify(body),
  });

async function call(base: string, key: string, body: Record<string, unknown>, idem?: string) {
  const res = await api(base, key, body, idem);
  if (res.status !== 200) throw new Error(`${body.action} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text);
}

/** Nearest rank: of 100 readings, p99 is the 99th, p50 the 50th. */
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]! * 10) / 10;
};

/** Payouts still pending, asked of the API (summarize_payouts reads the per-day figures: a few rows). */
const pendingCount = async (base: string) =>
  (await call(base, DEMO_KEY, { action: 'summarize_payouts', status: 'pending' })).count as number;
const payoutCount = async (base: string) => (await call(base, DEMO_KEY, { action: 'summarize_payouts' })).count as number;

/** What the build leaves for the reads to aim at deep in the history. */
interface Marks {
  payout?: string;
  txn?: string;
  idempotencyKey?: string;
}

/**
 * Adds `count` payouts in batches of 1,000 (one in `failingEvery` failing, one in 10,000 to the searched account),
 * with a checkout payment every 20 batches; then, if `drain`, waits until the pending payouts are back to
 * `pendingFloor` (those a day away).
 */
async function build(base: string, count: number, marks: Marks, failingEvery = 50, drain = true, pendingFloor = 0) {
  const batches = Math.ceil(count / BATCH);
  const settledBefore = (await payoutCount(base)) - (await pendingCount(base));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let b = next++; b < batches; b = next++) {
        const payouts = Array.from({ length: Math.min(BATCH, count - b * BATCH) }, (_, i) => ({
          amount: 10_000 + ((b * 7 + i) % 5_000),
          bank_code: 'BCA',
          // 2% fail; one payout in 10,000 goes to the searched account (a last-four search also finds the
          // random accounts that end alike: about one in 10,000 of them).
          account_number:
            i % failingEvery === 0
              ? FAILING
              : (b * BATCH + i) % 10_000 === 1
                ? SEARCHED
                : String(1_000_000_000 + (((b * BATCH + i) * 7919) % 8_999_999_999)),
          reference: `vol-${b}-${i}`,
        }));
        const key = randomUUID();
        const batch = await call(base, DEMO_KEY, { action: 'create_payout_batch', payouts }, key);
        if (b === Math.floor(batches / 2) && !marks.payout) {
          const txn = (await call(base, DEMO_KEY, { action: 'list_balance_transactions', limit: 1 })).data[0].id;
          Object.assign(marks, { payout: batch.payout_ids[500], txn, idempotencyKey: key });
        }
        if (b % 20 === 0) {
          const session = await call(base, DEMO_KEY, { action: 'create_checkout_session', amount: 150_000 }, randomUUID());
          await call(base, DEMO_KEY, { action: 'simulate_checkout_payment', id: session.id }, randomUUID());
        }
        if (b % 100 === 0) process.stdout.write(`  volume: ${b * BATCH} of ${count} payouts sent\n`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const settledDuring = (await payoutCount(base)) - (await pendingCount(base)) - settledBefore;
  // Then until every payout is settled (no slow test account is used), for at most DRAIN_MAX_S, so that both
  // sizes are timed in the state their mix names; reads during a backlog are the bank-outage stress's.
  const drainStart = performance.now();
  let pending = await pendingCount(base);
  while (drain && pending > pendingFloor && performance.now() - drainStart < DRAIN_MAX_S * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    pending = await pendingCount(base);
  }
  return {
    seconds,
    payoutsPerSecond: count / seconds,
    settledPerSecond: settledDuring / seconds,
    drainSeconds: (performance.now() - drainStart) / 1000,
    pending,
  };
}

/** Bytes on disk per table, indexes and TOAST included (PostgreSQL); the whole folder for the embedded database. */
async function diskBytes(where: Where): Promise<Record<string, number>> {
  if (where.dataDir) return { 'embedded data folder': folderBytes(path.join(where.dataDir, 'pgdata')) };
  const db = await openDb({ databaseUrl: where.databaseUrl, poolSize: 1, limits: LONG });
  try {
    // The schema's own tables: a bare ANALYZE walks every schema of the database, and deadlocked with a test
    // run dropping its schemas beside the bench.
    await analyzeSchema(db);
    const rows = await db.query<{ name: string; bytes: number }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
       WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace ORDER BY 2 DESC`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
  } finally {
    await db.close();
  }
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(p) : fs.statSync(p).size;
  }
  return total;
}

type Where = { databaseUrl: string; dataDir?: undefined } | { dataDir: string; databaseUrl?: undefined };

/**
 * The history at `size` payouts and, unless `once`, at twice that, on PostgreSQL (`databaseUrl`) or the
 * embedded database (`dataDir`). Everything goes through the server's API and console, as a merchant
 * would; only the bytes on disk are read beside it.
 */
export async function volumeBench(
  where: Where,
  distDir: string,
  size: number,
  once = false,
  mix: VolumeMix = 'settled',
): Promise<VolumeFigures> {
  const db = await openDb({ ...where, poolSize: 1, limits: LONG });
  try {
    const merchant = (await seedDemoMerchant(db, DEMO_KEY))!;
    await db.transaction((tx) => credit(tx, merchant.id, 4_000_000_000_000_000, 'adjustment', 'bench'));
  } finally {
    await db.close();
  }
  // A receiver for the webhook deliveries: answers 204 to everything, so no attempt is retried.
  let lastDelivery = performance.now();
  const receiver = http.createServer((req, res) => {
    lastDelivery = performance.now();
    req.resume().once('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  // After a build, until the receiver has heard nothing for 3 s (for at most DRAIN_MAX_S): both sizes are timed with
  // the webhook backlog their build made delivered, as with settlement's, not with a larger one beside the larger size.
  const webhooksDelivered = async () => {
    const started = performance.now();
    while (performance.now() - lastDelivery < 3_000 && performance.now() - started < DRAIN_MAX_S * 1000) {
      await new Promise((r) => setTimeout(r, 500));
    }
    return (performance.now() - started) / 1000;
  };
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The server, started again to change the settlement delay (a server setting) and to drop cached plans.
  let server: ServerProcess | undefined;
  let base = '';
  let cookie = '';
  let delay = 0;
  const start = async (delaySeconds = delay, statistics: 'auto' | 'off' = 'auto') => {
    await server?.stop();
    delay = delaySeconds;
    server = await new ServerProcess({
      kind: 'next',
      ...where,
      distDir,
      env: {
        LOG_LEVEL: 'warn',
        SETTLEMENT_DELAY_SECONDS: String(delaySeconds),
        TABLE_STATISTICS: statistics,
        METRICS_TOKEN,
      },
    }).start();
    base = server.url;
    cookie = await signInToConsole(base, DEMO_KEY);
  };
  await start(mix === 'pending' ? A_DAY_S : 1);
  const withoutStatistics = !where.dataDir;
  const figures: VolumeFigures = {
    mode: where.dataDir ? 'embedded' : 'postgres',
    mix,
    ...(withoutStatistics ? { readsWithoutStatistics: [], analyzedDuringReadsWithoutStatistics: [], activityWithoutStatistics: [] } : {}),
    size,
    sizes: [],
    buildSeconds: [],
    payoutsPerSecond: [],
    settledPerSecondDuringBuild: [],
    settleDrainSeconds: [],
    pendingWhenTimed: [],
    bytesPerPayout: [],
    exportRowsPerSecond: [],
    statementLinesPerSecond: [],
    tables: [],
    reads: [],
    rounds: REPS,
  };
  try {
    const failedHook = await call(
      base,
      DEMO_KEY,
      { action: 'create_webhook_endpoint', url: hook, enabled_events: ['payout.failed'] },
      randomUUID(),
    );
    await call(
      base,
      DEMO_KEY,
      { action: 'create_webhook_endpoint', url: hook, enabled_events: ['checkout_session.completed'] },
      randomUUID(),
    );
    const keys: string[] = [];
    for (const [name, permissions] of [
      ['Support', ['payouts:read', 'balance:read']],
      ['Finance', ['payouts:read', 'payouts:write', 'balance:read', 'events:read']],
      ['Auditor', ['requests:read', 'events:read']],
    ] as const) {
      keys.push((await call(base, DEMO_KEY, { action: 'create_restricted_key', name, permissions }, randomUUID())).secret);
    }
    const reader = keys[1]!;
    const marks: Marks = {};

    for (const target of once ? [size] : [size, 2 * size]) {
      const count = target - (figures.sizes.at(-1) ?? 0);
      let built: Awaited<ReturnType<typeof build>>;
      if (mix === 'half') {
        // The older half settled, a fifth of it failed (a tenth of all); then the newer half waits a day.
        if (delay !== 1) await start(1);
        const settledHalf = await build(base, count / 2, marks, 5, true, await pendingCount(base));
        await start(A_DAY_S);
        const pendingHalf = await build(base, count / 2, marks, 50, false);
        built = {
          seconds: settledHalf.seconds + pendingHalf.seconds,
          payoutsPerSecond: count / (settledHalf.seconds + pendingHalf.seconds),
          settledPerSecond: settledHalf.settledPerSecond,
          drainSeconds: settledHalf.drainSeconds,
          pending: pendingHalf.pending,
        };
      } else built = await build(base, count, marks, 50, mix === 'settled');
      built.drainSeconds += await webhooksDelivered();
      figures.sizes.push(target);
      figures.buildSeconds.push(Math.round(built.seconds));
      figures.payoutsPerSecond.push(Math.round(built.payoutsPerSecond));
      figures.settledPerSecondDuringBuild.push(Math.round(built.settledPerSecond));
      figures.settleDrainSeconds.push(Math.round(built.drainSeconds));
      figures.pendingWhenTimed.push(built.pending);

      const today = new Date().toISOString().slice(0, 10);
      // The merchant's zone is Asia/Jakarta (UTC+7): this month there.
      const jakartaMonth = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 7);
      // The reports page's lines of this month (the route takes the month itself: its period in the merchant's zone).
      const linesRoute = `/api/reports/lines?month=${jakartaMonth}`;
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const deepPayout = marks.payout!;
      const deepEvent = (await call(base, DEMO_KEY, { action: 'list_events', object_id: deepPayout, type: 'payout.created' })).data[0];
      const failedEvent = (
        await call(base, DEMO_KEY, { action: 'list_webhook_deliveries', endpoint_id: failedHook.id, limit: 20 })
      ).data.at(-1);
      const reqLog = (await call(base, DEMO_KEY, { action: 'list_requests', idempotency_key: marks.idempotencyKey })).data[0];
      const actions: [string, Record<string, unknown>, ReadFigure['kind']?][] = [
        ['list_payouts first page', { action: 'list_payouts', limit: 20 }],
        ['list_payouts deep cursor', { action: 'list_payouts', limit: 20, starting_after: deepPayout }],
        ['list_payouts status=failed', { action: 'list_payouts', limit: 20, status: 'failed' }],
        ['list_payouts status=paid', { action: 'list_payouts', limit: 20, status: 'paid' }],
        ['list_payouts status=pending', { action: 'list_payouts', limit: 20, status: 'pending' }],
        ['list_payouts last4', { action: 'list_payouts', limit: 20, account_last4: SEARCHED.slice(-4) }],
        [
          'list_payouts empty date range',
          { action: 'list_payouts', limit: 20, created_gte: `${yesterday}T00:00:00Z`, created_lt: `${today}T00:00:00Z` },
        ],
        ['list_payouts today', { action: 'list_payouts', limit: 20, created_gte: `${today}T00:00:00Z` }],
        [
          'list_payouts failed+last4+today',
          { action: 'list_payouts', limit: 20, status: 'failed', account_last4: FAILING.slice(-4), created_gte: `${today}T00:00:00Z` },
        ],
        ['get_payout by id', { action: 'get_payout', id: deepPayout }],
        ['summarize_payouts all', { action: 'summarize_payouts' }, 'summary'],
        ['summarize_payouts failed', { action: 'summarize_payouts', status: 'failed' }, 'summary'],
        ['summarize_payouts last4', { action: 'summarize_payouts', account_last4: SEARCHED.slice(-4) }, 'summary'],
        ['summarize_payouts today', { action: 'summarize_payouts', created_gte: `${today}T00:00:00Z` }, 'summary'],
        ['summarize_balance 30 days', { action: 'summarize_balance', days: 30 }, 'summary'],
        ['get_balance as_of start of today', { action: 'get_balance', as_of: `${today}T00:00:00.000Z` }],
        ['get_statement this month (figures)', { action: 'get_statement', month: jakartaMonth }, 'summary'],
        [
          'get_statement today to now (instants)',
          { action: 'get_statement', from: `${today}T00:00:01.234Z`, to: new Date().toISOString() },
          'summary',
        ],
        ['list_balance_transactions first page', { action: 'list_balance_transactions', limit: 20 }],
        ['list_balance_transactions deep cursor', { action: 'list_balance_transactions', limit: 20, starting_after: marks.txn }],
        ['list_balance_transactions checkout_payment', { action: 'list_balance_transactions', limit: 20, type: 'checkout_payment' }],
        ['list_balance_transactions payout_reversal', { action: 'list_balance_transactions', limit: 20, type: 'payout_reversal' }],
        ['list_events first page', { action: 'list_events', limit: 20 }],
        ['list_events payout.failed', { action: 'list_events', limit: 20, type: 'payout.failed' }],
        ['list_events by object', { action: 'list_events', limit: 20, object_id: deepPayout }],
        ['list_events deep cursor', { action: 'list_events', limit: 20, starting_after: deepEvent!.id }],
        ['list_requests first page', { action: 'list_requests', limit: 20 }],
        ['list_requests by key', { action: 'list_requests', limit: 20, key_id: reqLog!.key_id }],
        ['list_requests by idempotency key', { action: 'list_requests', limit: 20, idempotency_key: reqLog!.idempotency_key }],
        ['list_requests status=422', { action: 'list_requests', limit: 20, status: 422 }],
        ['list_webhook_deliveries first page', { action: 'list_webhook_deliveries', limit: 20 }],
        ['list_webhook_deliveries by endpoint', { action: 'list_webhook_deliveries', limit: 20, endpoint_id: failedHook.id }],
        ['list_webhook_deliveries by event', { action: 'list_webhook_deliveries', limit: 20, event_id: failedEvent?.event_id }],
        ['list_payout_batches first page', { action: 'list_payout_batches', limit: 20 }],
      ];
      const consoleRoutes: [string, string][] = [
        ['GET /api/balance', '/api/balance'],
        ['GET /api/payouts', '/api/payouts?limit=20'],
        ['GET /api/payouts?status=failed', '/api/payouts?limit=20&status=failed'],
        ['GET /api/payouts last4', `/api/payouts?limit=20&account_last4=${SEARCHED.slice(-4)}`],
        ['GET /api/payouts/summary?status=failed', '/api/payouts/summary?status=failed'],
        ['GET /api/payouts/export last4 (whole file)', `/api/payouts/export?q=${SEARCHED.slice(-4)}`],
        ['GET /api/payouts/export all (first byte)', '/api/payouts/export'],
        ['GET /api/reports/lines this month (first byte)', linesRoute],
        ['GET /api/webhook-deliveries', `/api/webhook-deliveries?endpoint_id=${failedHook.id}&limit=20`],
        ['page /dashboard', '/dashboard'],
        ['page /balance', '/balance'],
        ['page /payouts', '/payouts'],
        ['page /payouts?q=last4', `/payouts?q=${SEARCHED.slice(-4)}`],
        ['page /payouts?status=failed', '/payouts?status=failed'],
        ['page /logs', '/logs'],
      ];
      // Each size's floors, timed in the same rounds: a read of the merchant's settings through the API and
      // through a console route, which no history touches. What they gain from one size to the next is the
      // machine's drift (the other readings move with it), not the history's cost (bench/volume-report.ts).
      const reads: { name: string; kind: ReadFigure['kind']; once: () => ReturnType<typeof timed> }[] = [
        { name: FLOOR.api, kind: 'floor', once: () => api(base, DEMO_KEY, { action: 'get_account_settings' }) },
        { name: FLOOR.console, kind: 'floor', once: () => timed(base + '/api/account-settings', { method: 'GET', headers: { cookie } }) },
        ...actions.map(([name, body, kind]) => {
          const key = /list_requests|webhook/.test(name) ? DEMO_KEY : reader;
          return { name, kind: kind ?? ('action' as const), once: () => api(base, key, body) };
        }),
        ...consoleRoutes.map(([name, route]) => ({
          name,
          kind: 'console' as const,
          once: () =>
            timed(base + route, {
              method: 'GET',
              headers: { cookie },
              firstByte: name.includes('first byte'),
              countLines: name.includes('whole file'),
            }),
        })),
      ];
      /**
       * One warm-up round, then REPS rounds of every read once, in turn: whatever else the machine does during the
       * stretch (a job, a checkpoint, another tenant) falls on every read alike instead of on the few timed beside it.
       */
      const measureAll = async (into: ReadFigure[], beside: ActivitySpent[] | undefined) => {
        for (const r of reads) {
          const warm = await r.once();
          if (warm.status !== 200) throw new Error(`${r.name} answered ${warm.status}: ${warm.text.slice(0, 300)}`);
        }
        const before = beside && (await activitySnapshot(base, METRICS_TOKEN, where.databaseUrl!));
        const times = reads.map((): number[] => []);
        const lines = reads.map(() => 0);
        for (let round = 0; round < REPS; round++) {
          for (const [i, r] of reads.entries()) {
            const t = await r.once();
            times[i]!.push(t.ms);
            if (t.lines !== undefined) lines[i] = t.lines;
          }
        }
        if (before) beside!.push(activitySpent(before, await activitySnapshot(base, METRICS_TOKEN, where.databaseUrl!)));
        for (const [i, r] of reads.entries()) {
          let figure = into.find((f) => f.name === r.name);
          if (!figure) into.push((figure = { name: r.name, kind: r.kind, p50: [], p99: [] }));
          figure.p50.push(pct(times[i]!, 50));
          figure.p99.push(pct(times[i]!, 99));
          if (r.name.includes('whole file')) (figure.lines ??= []).push(lines[i]!);
        }
      };
      if (withoutStatistics) {
        // No planner statistics, as right after a bulk load where no autovacuum daemon runs: the schema's are
        // deleted (the bench connects as a superuser), and the server started again, without the app's own ANALYZE
        // (TABLE_STATISTICS=off), so that no plan made with statistics stays and none come back meanwhile. The
        // server with statistics on is stopped first: its ANALYZE, running on, put them back (the settled mix, once).
        await server?.stop();
        server = undefined;
        await dropStatistics(where.databaseUrl!);
        await start(delay, 'off');
        await measureAll(figures.readsWithoutStatistics!, figures.activityWithoutStatistics);
        figures.analyzedDuringReadsWithoutStatistics!.push(await tablesWithStatistics(where.databaseUrl!));
        await start(delay);
      }
      // diskBytes runs ANALYZE first: the reads below have statistics.
      const tables = await diskBytes(where);
      figures.tables.push(tables);
      // Bytes per payout: every table and index of the schema over the payouts in it.
      figures.bytesPerPayout.push(Math.round(Object.values(tables).reduce((s, b) => s + b, 0) / target));
      await measureAll(figures.reads, withoutStatistics ? (figures.activity ??= []) : undefined);
      // The export of every payout, once, its first EXPORT_SAMPLE_ROWS rows: rows per second while streaming.
      const want = Math.min(target, EXPORT_SAMPLE_ROWS);
      const whole = await timed(`${base}/api/payouts/export`, { method: 'GET', headers: { cookie }, countLines: true, maxLines: want });
      if (whole.lines! < want) throw new Error(`the export held ${whole.lines} lines for ${target} payouts`);
      figures.exportRowsPerSecond.push(Math.round(whole.lines! / (whole.ms / 1000)));
      // The statement's lines, the same way (each payout is at least one line).
      const lines = await timed(base + linesRoute, { method: 'GET', headers: { cookie }, countLines: true, maxLines: want });
      if (lines.lines! < want) throw new Error(`the statement held ${lines.lines} lines for ${target} payouts`);
      figures.statementLinesPerSecond.push(Math.round(lines.lines! / (lines.ms / 1000)));
      process.stdout.write(`  volume: reads timed at ${target} payouts\n`);
    }
  } finally {
    await server?.stop();
    receiver.close();
  }
  return figures;
}

/** Deletes the planner's statistics of the schema's tables (a superuser's right). */
async function dropStatistics(databaseUrl: string) {
  const db = await openDb({ databaseUrl, poolSize: 1, limits: LONG });
  try {
    await db.exec(
      `DELETE FROM pg_statistic WHERE starelid IN (SELECT oid FROM pg_class WHERE relnamespace = current_schema()::regnamespace)`,
    );
  } finally {
    await db.close();
  }
}

async function tablesWithStatistics(databaseUrl: string): Promise<string[]> {
  const db = await openDb({ databaseUrl, poolSize: 1, limits: LONG });
  try {
    return (
      await db.query<{ name: string }>(`SELECT DISTINCT tablename AS name FROM pg_stats WHERE schemaname = current_schema() ORDER BY 1`)
    ).map((r) => r.name);
  } finally {
    await db.close();
  }
}
