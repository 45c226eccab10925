// What a synchronous standby costs a busy merchant: the busy-merchant case (one merchant, 64 clients,
// group commit on) through HAProxy on the local Patroni cluster (ops/cluster), with Patroni's
// synchronous_mode on and off on the same cluster (PATCH /config), rounds alternating; and a lone
// client's p50 both ways; and pgbench's hot-row limit through the same cluster with the standby synchronous
// (bench/hot-row-limit.ts, 64 clients, on a merchant of its own), each round, as the floor the app's rate is
// held against. The API runs as `npm run start:api` (the same core as behind Next).
//   npm run bench:replication   (BENCH_SECONDS, default 10; BENCH_ROUNDS, default 4)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import { createMerchant } from '../lib/payments/merchants/merchants';
import { freePortBlock } from '../ops/cluster/layout';
import { LocalCluster } from '../ops/cluster/local-cluster';
import { API_PATH } from '../testing/api-path';
import { ledgerCheck } from '../testing/ledger';
import { ServerProcess } from '../testing/server-process';
import { drive, sequentialP50, type Drive } from './drive';
import { hotRowLimit } from './hot-row-limit';
import { runProvenance } from './run-provenance';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CLIENTS = 64;
const BIG = 1_000_000_000_000;

const withdrawDrive = (key: string): Drive => ({
  path: API_PATH,
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  body: { action: 'withdraw', amount: 10_000, bank_code: 'BCA', account_number: '1234567890' },
  uniqueKey: 'header',
});
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replication-cost-'));
  fs.chmodSync(dir, 0o755);
  const cluster = await LocalCluster.start({ dir: path.join(dir, 'cluster'), basePort: await freePortBlock(), synchronous: true });
  const server = new ServerProcess({
    kind: 'standalone',
    databaseUrl: cluster.databaseUrl,
    env: { LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '12', WITHDRAW_GROUP_COMMIT: 'true', SETTLEMENT_DELAY_SECONDS: '86400' },
  });
  try {
    await server.start();
    const db = await openDb({ databaseUrl: cluster.databaseUrl, poolSize: 2 });
    const merchant = await createMerchant(db, { name: 'Busy', openingBalance: BIG });
    // pgbench's updates move this one's balance without ledger entries: kept apart from the one checked.
    const limitMerchant = await createMerchant(db, { name: 'Hot-row limit', openingBalance: BIG });
    const d = withdrawDrive(merchant.secretKey);
    // Warm-up at full load: the pool, the JIT and the tables, before either side is measured.
    await drive(server.url, d, CLIENTS, 5);
    const figures = {
      sync: { rps: [] as number[], p50: [] as number[], non2xx: 0 },
      async: { rps: [] as number[], p50: [] as number[], non2xx: 0 },
    };
    const rounds: { round: number; mode: 'sync' | 'async'; rps: number; loneP50Ms: number }[] = [];
    const paired: number[] = [];
    const limits: number[] = [];
    const overLimit: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so that neither always runs on a warmer (or more bloated) table.
      const order: ('sync' | 'async')[] = round % 2 === 0 ? ['sync', 'async'] : ['async', 'sync'];
      for (const mode of order) {
        await cluster.setSynchronous(mode === 'sync');
        const r = await drive(server.url, d, CLIENTS, SECONDS);
        const p50 = await sequentialP50(server.url, d, 3);
        figures[mode].rps.push(r.requests.average);
        figures[mode].p50.push(p50);
        figures[mode].non2xx += r.non2xx + r.errors;
        rounds.push({ round: round + 1, mode, rps: Math.round(r.requests.average), loneP50Ms: r2(p50) });
        process.stdout.write(
          `  round ${round + 1}, ${mode}: ${Math.round(r.requests.average)} withdrawals/s at ${CLIENTS} clients, lone client p50 ${r2(p50)} ms\n`,
        );
      }
      // The machine's other load moves both sides of a round alike: the ratio is paired by round.
      paired.push(figures.sync.rps.at(-1)! / figures.async.rps.at(-1)!);
      await cluster.setSynchronous(true);
      limits.push(await hotRowLimit(cluster.databaseUrl, limitMerchant.id, CLIENTS, SECONDS));
      overLimit.push(figures.sync.rps.at(-1)! / limits.at(-1)!);
      process.stdout.write(`  round ${round + 1}: pgbench's hot-row limit through the cluster ${Math.round(limits.at(-1)!)}/s\n`);
    }
    const check = await ledgerCheck(db, merchant.id);
    await db.close();
    const result = {
      ...(await runProvenance(cluster.databaseUrl)),
      clients: CLIENTS,
      seconds: SECONDS,
      nodes: cluster.nodes.length,
      synchronous: { rps: Math.round(median(figures.sync.rps)), loneP50Ms: r2(median(figures.sync.p50)), non2xx: figures.sync.non2xx },
      asynchronous: { rps: Math.round(median(figures.async.rps)), loneP50Ms: r2(median(figures.async.p50)), non2xx: figures.async.non2xx },
      ratio: r2(median(figures.sync.rps) / median(figures.async.rps)),
      pairedRatio: r2(median(paired)),
      /** pgbench's one-row update through the same cluster, synchronous standby, CLIENTS clients. */
      hotRowLimit: Math.round(median(limits)),
      /** The app's synchronous rate over pgbench's, paired by round (target ≥ 1.0×). */
      overHotRowLimit: r2(median(overLimit)),
      rounds,
      ledgerExact: check.ledger === check.available && check.pending === check.pendingSum,
    };
    process.stdout.write(
      `\nReplication cost (busy merchant, ${CLIENTS} clients, group commit on, median of ${ROUNDS} rounds):\n` +
        `  synchronous standby: ${result.synchronous.rps} withdrawals/s, lone client p50 ${result.synchronous.loneP50Ms} ms\n` +
        `  asynchronous only:   ${result.asynchronous.rps} withdrawals/s, lone client p50 ${result.asynchronous.loneP50Ms} ms\n` +
        `  pgbench's hot-row limit through the cluster: ${result.hotRowLimit}/s; the app ${result.overHotRowLimit}× of it, paired by round (target ≥ 1.0)\n` +
        `  ratio ${result.ratio} of the medians, ${result.pairedRatio} paired by round (target ≥ 0.7); non-2xx ${result.synchronous.non2xx + result.asynchronous.non2xx}; ledger exact: ${result.ledgerExact}\n`,
    );
    fs.writeFileSync(path.join(__dirname, 'results', 'replication-cost.json'), JSON.stringify(result, null, 2) + '\n');
  } finally {
    await server.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
