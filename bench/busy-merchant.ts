// The throughput of a busy merchant, on PostgreSQL: one balance row that every withdrawal of the
// merchant must update. Measured against the hot-row limit in the same run (pgbench with the same number of
// clients, each committing one conditional update of one balance row per transaction: bench/hot-row-limit.ts),
// with group commit on and off (WITHDRAW_GROUP_COMMIT) side by side, with the CPU each
// withdrawal costs the server and its PostgreSQL backends. Also 10,000 payouts in batches of 1,000.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import type { Db } from '../lib/db/types';
import { createMerchant, type CreatedMerchant } from '../lib/payments/merchants/merchants';
import { API_PATH } from '../testing/api-path';
import { createSchemaUrl } from '../testing/databases';
import { ledgerCheck } from '../testing/ledger';
import { ServerProcess } from '../testing/server-process';
import { drive, sequentialP50, WARM_UP_S, type Drive } from './drive';
import { hotRowLimit } from './hot-row-limit';
import { median } from './paired';
import { cpuReader, cpuSpent } from './process-cpu';
import type { RunProvenance } from './run-provenance';

const PAYOUT = { amount: 10_000, bank_code: 'BCA', account_number: '1234567890' };
const BIG = 1_000_000_000_000;

const withdrawDrive = (key: string): Drive => ({
  path: API_PATH,
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  body: { action: 'withdraw', ...PAYOUT },
  uniqueKey: 'header',
});

/** A server with group commit on or off, on a schema of its own, its backends named so that their CPU can be read. */
interface Side {
  grouping: boolean;
  server: ServerProcess;
  db: Db;
  one: CreatedMerchant;
  many: CreatedMerchant[];
  cpu: Awaited<ReturnType<typeof cpuReader>>;
}

async function startSide(baseUrl: string, grouping: boolean, distDir: string): Promise<Side> {
  const appName = `bench_group_${grouping ? 'on' : 'off'}_${randomUUID().slice(0, 6)}`;
  const url = new URL(await createSchemaUrl(baseUrl));
  const plain = url.toString();
  url.searchParams.set('application_name', appName);
  const db = await openDb({ databaseUrl: plain, poolSize: 2 });
  const one = await createMerchant(db, { name: 'Busy', openingBalance: BIG });
  const many = await Promise.all(Array.from({ length: 64 }, (_, i) => createMerchant(db, { name: `Seller ${i}`, openingBalance: BIG })));
  // 12 connections serve 64 HTTP clients (the server is CPU-bound long before; a group needs one), and
  // two servers leave room under PostgreSQL's default 100 connections for the 64 of the hot-row limit.
  const server = await new ServerProcess({
    kind: 'next',
    databaseUrl: url.toString(),
    distDir,
    env: { LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '12', WITHDRAW_GROUP_COMMIT: String(grouping), METRICS_TOKEN },
  }).start();
  return { grouping, server, db, one, many, cpu: await cpuReader(baseUrl, appName) };
}

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU per withdrawal in ms: the server process, and its PostgreSQL backends. */
  serverCpuMs: number;
  databaseCpuMs: number;
  /** Withdrawals per commit group (payments_withdraw_group_size on /metrics); 1 without grouping. */
  groupSize: number;
}

const METRICS_TOKEN = randomUUID();

/** The sum and count of payments_withdraw_group_size, from the server's /metrics. */
async function groupSizes(server: ServerProcess): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const read = (name: string) =>
    Number(new RegExp(`^payments_withdraw_group_size_${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { sum: read('sum'), count: read('count') };
}

/** Withdrawals through `side` for `seconds`, `connections` at a time, spread over `keys`, with their CPU. */
async function withdrawals(side: Side, keys: string[], connections: number, seconds: number): Promise<LoadFigures> {
  let next = 0;
  const groupsBefore = await groupSizes(side.server);
  const before = await side.cpu.read(side.server.pid!);
  const r = await drive(side.server.url, withdrawDrive(keys[0]!), connections, seconds, (req) => ({
    ...req,
    headers: { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}`, 'x-service-idempotency': randomUUID() },
  }));
  const spent = cpuSpent(before, await side.cpu.read(side.server.pid!));
  const groupsAfter = await groupSizes(side.server);
  const groups = groupsAfter.count - groupsBefore.count;
  const answered = Math.max(1, r.requests.total);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
    serverCpuMs: spent.serverMs / answered,
    databaseCpuMs: spent.databaseMs / answered,
    groupSize: groups > 0 ? (groupsAfter.sum - groupsBefore.sum) / groups : 1,
  };
}

/** 10,000 payouts for one merchant through the API, 10 requests of 1,000, one after the other. */
async function tenThousandInBatches(url: string, key: string): Promise<number> {
  const t = performance.now();
  for (let b = 0; b < 10; b++) {
    const payouts = Array.from({ length: 1000 }, (_, i) => ({
      ...PAYOUT,
      account_number: String(1_000_000_000 + b * 1000 + i),
      reference: `run-${b}-${i}`,
    }));
    const res = await fetch(url + API_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-service-idempotency': randomUUID() },
      body: JSON.stringify({ action: 'create_payout_batch', payouts }),
    });
    if (res.status !== 200) throw new Error(`batch ${b} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
  return performance.now() - t;
}

/** Each case's figures with group commit on and off (medians over rounds; the ratio paired by round). */
export interface GroupedCase {
  on: LoadFigures;
  off: LoadFigures;
  /** Median of on/off withdrawals per second, paired by round. */
  onOverOff: number;
}

/** bench/results/busy.json, rendered on docs/benchmarks.md: written by every run that measured a busy merchant. */
export const BUSY_RESULTS = path.join(__dirname, 'results/busy.json');

export function writeBusyResults(figures: BusyMerchantFigures, provenance: RunProvenance): void {
  fs.writeFileSync(BUSY_RESULTS, JSON.stringify({ ...provenance, ...figures }, null, 2) + '\n');
}

export interface BusyMerchantFigures {
  hotRowLimit: Record<string, number>;
  /** One merchant at 8 and 64 clients; `ofLimit`: grouped withdrawals over the hot-row limit, paired by round. */
  oneMerchant: Record<string, GroupedCase & { ofLimit: number }>;
  manyMerchants: GroupedCase & { clients: number; merchants: number };
  /** One request at a time, p50 in ms (timed to the microsecond). */
  oneClient: { onP50: number; offP50: number };
  batch: { payouts: number; ms: number; invariantExact: boolean };
}

const medianFigures = (fs: LoadFigures[]): LoadFigures => ({
  rps: Math.round(median(fs.map((f) => f.rps))),
  p50: median(fs.map((f) => f.p50)),
  p99: median(fs.map((f) => f.p99)),
  non2xx: fs.reduce((n, f) => n + f.non2xx, 0),
  serverCpuMs: Math.round(median(fs.map((f) => f.serverCpuMs)) * 1000) / 1000,
  databaseCpuMs: Math.round(median(fs.map((f) => f.databaseCpuMs)) * 1000) / 1000,
  groupSize: Math.round(median(fs.map((f) => f.groupSize)) * 10) / 10,
});
const r2 = (x: number) => Math.round(x * 100) / 100;

/** The whole section: two `npm start` servers (group commit on, off) on fresh schemas of `databaseUrl`. */
export async function busyMerchant(databaseUrl: string, distDir: string, seconds: number, rounds: number): Promise<BusyMerchantFigures> {
  const hot = await (async () => {
    const url = await createSchemaUrl(databaseUrl);
    const db = await openDb({ databaseUrl: url, poolSize: 2 });
    return { url, db, merchant: await createMerchant(db, { name: 'Hot row', openingBalance: BIG }) };
  })();
  const sides = [await startSide(databaseUrl, true, distDir), await startSide(databaseUrl, false, distDir)];
  const [on, off] = sides as [Side, Side];
  try {
    for (const s of sides) await withdrawals(s, [s.one.secretKey], 8, WARM_UP_S);
    const limit: Record<string, number[]> = { 8: [], 64: [] };
    type Rounds = { on: LoadFigures[]; off: LoadFigures[]; ratio: number[]; ofLimit: number[] };
    const fresh = (): Rounds => ({ on: [], off: [], ratio: [], ofLimit: [] });
    const single: Record<string, Rounds> = { 8: fresh(), 64: fresh() };
    const spread = fresh();
    const oneClient = { on: [] as number[], off: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      for (const clients of [8, 64]) {
        const l = await hotRowLimit(hot.url, hot.merchant.id, clients, seconds);
        const w = {
          on: await withdrawals(on, [on.one.secretKey], clients, seconds),
          off: await withdrawals(off, [off.one.secretKey], clients, seconds),
        };
        const c = single[clients]!;
        limit[clients]!.push(l);
        c.on.push(w.on);
        c.off.push(w.off);
        c.ratio.push(w.on.rps / w.off.rps);
        c.ofLimit.push(w.on.rps / l);
        process.stdout.write(
          `  busy merchant round ${round + 1}: ${clients} clients, hot-row limit ${Math.round(l)}/s, one merchant ${Math.round(w.on.rps)}/s grouped, ${Math.round(w.off.rps)}/s not\n`,
        );
      }
      const m = {
        on: await withdrawals(
          on,
          on.many.map((x) => x.secretKey),
          64,
          seconds,
        ),
        off: await withdrawals(
          off,
          off.many.map((x) => x.secretKey),
          64,
          seconds,
        ),
      };
      spread.on.push(m.on);
      spread.off.push(m.off);
      spread.ratio.push(m.on.rps / m.off.rps);
      for (const s of sides)
        oneClient[s.grouping ? 'on' : 'off'].push(await sequentialP50(s.server.url, withdrawDrive(s.one.secretKey), Math.min(seconds, 2)));
      process.stdout.write(
        `  busy merchant round ${round + 1}: 64 merchants ${Math.round(m.on.rps)}/s grouped, ${Math.round(m.off.rps)}/s not; one client p50 ${r2(oneClient.on.at(-1)!)} / ${r2(oneClient.off.at(-1)!)} ms\n`,
      );
    }
    const batcher = await createMerchant(on.db, { name: 'Payroll', openingBalance: BIG });
    const ms = await tenThousandInBatches(on.server.url, batcher.secretKey);
    const check = await ledgerCheck(on.db, batcher.id);
    process.stdout.write(`  10,000 payouts in batches of 1,000: ${Math.round(ms)} ms\n`);
    const summary = (c: Rounds): GroupedCase => ({ on: medianFigures(c.on), off: medianFigures(c.off), onOverOff: r2(median(c.ratio)) });
    return {
      hotRowLimit: { 8: Math.round(median(limit[8]!)), 64: Math.round(median(limit[64]!)) },
      oneMerchant: Object.fromEntries(Object.entries(single).map(([c, s]) => [c, { ...summary(s), ofLimit: r2(median(s.ofLimit)) }])),
      manyMerchants: { clients: 64, merchants: 64, ...summary(spread) },
      oneClient: { onP50: r2(median(oneClient.on)), offP50: r2(median(oneClient.off)) },
      batch: {
        payouts: check.payouts,
        ms: Math.round(ms),
        invariantExact: check.ledger === check.available && check.pending === check.pendingSum && check.available === BIG - 10_000 * 10_000,
      },
    };
  } finally {
    for (const s of sides) {
      await s.server.stop();
      await s.cpu.close();
      await s.db.close();
    }
    await hot.db.close();
  }
}
