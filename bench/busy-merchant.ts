// The throughput of a busy merchant, on PostgreSQL: one balance row that every withdrawal of the
// merchant must update. Measured against the hot-row limit in the same run: the same number of
// clients, each committing one conditional update of one balance row per transaction, straight on
// the driver. Also many merchants at once, and 10,000 payouts in batches of 1,000.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDb } from '../lib/db/open-db';
import { createMerchant } from '../lib/payments/merchants';
import { API_PATH } from '../tests/helpers/api-path';
import { ledgerCheck } from '../tests/helpers/ledger';
import { ServerProcess } from '../tests/helpers/server-process';
import { drive } from './drive';

const PAYOUT = { amount: 10_000, bank_code: 'BCA', account_number: '1234567890' };

/** Commits per second of `clients` connections each running the conditional update alone, for `seconds`. */
async function hotRowLimit(databaseUrl: string, merchantId: string, clients: number, seconds: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: clients });
  const sql = `UPDATE balances SET available = available - 1, pending_payouts = pending_payouts + 1 WHERE merchant_id = $1 AND available >= 1`;
  await Promise.all(Array.from({ length: clients }, () => pool.query('SELECT 1'))); // connections open before the clock starts
  let commits = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await pool.query(sql, [merchantId]);
        commits++;
      }
    }),
  );
  await pool.end();
  return commits / seconds;
}

/** Withdrawals per second through the server, `connections` at a time, spread over `keys` (one merchant or many). */
async function withdrawals(url: string, keys: string[], connections: number, seconds: number): Promise<{ rps: number; non2xx: number }> {
  let next = 0;
  const r = await drive(
    url,
    {
      path: API_PATH,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { action: 'withdraw', ...PAYOUT },
    },
    connections,
    seconds,
    (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}`, 'x-service-idempotency': randomUUID() } }),
  );
  return { rps: r.requests.average, non2xx: r.non2xx + r.errors };
}

/** 10,000 payouts for one merchant through the API, 10 requests of 1,000, one after the other. */
async function tenThousandInBatches(url: string, key: string): Promise<number> {
  const t = performance.now();
  for (let b = 0; b < 10; b++) {
    const payouts = Array.from({ length: 1000 }, (_, i) => ({ ...PAYOUT, account_number: String(1_000_000_000 + b * 1000 + i), reference: `run-${b}-${i}` }));
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

export interface BusyMerchantFigures {
  hotRowLimit: Record<string, number>;
  oneMerchant: Record<string, { rps: number; ofLimit: number; non2xx: number }>;
  manyMerchants: { clients: number; merchants: number; rps: number; non2xx: number };
  batch: { payouts: number; ms: number; invariantExact: boolean };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The whole section on a fresh schema and one `npm start` server. */
export async function busyMerchant(databaseUrl: string, distDir: string, seconds: number, rounds: number): Promise<BusyMerchantFigures> {
  const db = await openDb({ databaseUrl, poolSize: 2 });
  const big = 1_000_000_000_000;
  const one = await createMerchant(db, { name: 'Busy', openingBalance: big });
  const hot = await createMerchant(db, { name: 'Hot row', openingBalance: big });
  const many = await Promise.all(Array.from({ length: 64 }, (_, i) => createMerchant(db, { name: `Seller ${i}`, openingBalance: big })));
  const batcher = await createMerchant(db, { name: 'Payroll', openingBalance: big });
  // 24 connections serve 64 HTTP clients (the server is CPU-bound long before), and leave room under
  // PostgreSQL's default 100 connections for the 64 of the hot-row limit.
  const server = await new ServerProcess({ kind: 'next', databaseUrl, distDir, env: { LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '24' } }).start();
  try {
    await withdrawals(server.url, [one.secretKey], 8, 2); // warm-up
    const limit: Record<string, number[]> = { 8: [], 64: [] };
    const single: Record<string, { rps: number[]; ratio: number[]; non2xx: number }> = { 8: { rps: [], ratio: [], non2xx: 0 }, 64: { rps: [], ratio: [], non2xx: 0 } };
    const spread = { rps: [] as number[], non2xx: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const clients of [8, 64]) {
        const l = await hotRowLimit(databaseUrl, hot.id, clients, seconds);
        const w = await withdrawals(server.url, [one.secretKey], clients, seconds);
        limit[clients]!.push(l);
        single[clients]!.rps.push(w.rps);
        single[clients]!.ratio.push(w.rps / l);
        single[clients]!.non2xx += w.non2xx;
        process.stdout.write(`  busy merchant round ${round + 1}: ${clients} clients, hot-row limit ${Math.round(l)}/s, one merchant ${Math.round(w.rps)} withdrawals/s\n`);
      }
      const m = await withdrawals(server.url, many.map((x) => x.secretKey), 64, seconds);
      spread.rps.push(m.rps);
      spread.non2xx += m.non2xx;
      process.stdout.write(`  busy merchant round ${round + 1}: 64 clients over 64 merchants ${Math.round(m.rps)} withdrawals/s\n`);
    }
    const ms = await tenThousandInBatches(server.url, batcher.secretKey);
    const check = await ledgerCheck(db, batcher.id);
    process.stdout.write(`  10,000 payouts in batches of 1,000: ${Math.round(ms)} ms\n`);
    return {
      hotRowLimit: { 8: Math.round(median(limit[8]!)), 64: Math.round(median(limit[64]!)) },
      oneMerchant: Object.fromEntries(
        Object.entries(single).map(([c, s]) => [c, { rps: Math.round(median(s.rps)), ofLimit: Math.round(median(s.ratio) * 100) / 100, non2xx: s.non2xx }]),
      ),
      manyMerchants: { clients: 64, merchants: 64, rps: Math.round(median(spread.rps)), non2xx: spread.non2xx },
      batch: { payouts: check.payouts, ms: Math.round(ms), invariantExact: check.ledger === check.available && check.pending === check.pendingSum && check.available === big - 10_000 * 10_000 },
    };
  } finally {
    await server.stop();
    await db.close();
  }
}
