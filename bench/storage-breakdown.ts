// What each SETTLED payout costs on disk, table by table and index by index (PostgreSQL): STORAGE_PAYOUTS payouts
// (default 20,000) made through the core in batches of 1,000 (2% failing), every one settled, then VACUUM; once with
// their events, once more after the events' retention purge. And the share of settlement's updates of payouts that
// were HOT (n_tup_hot_upd / n_tup_upd).
// No target: the figures are reported as they are. Part of `npm run bench` (BENCH_ONLY_STORAGE=1 alone, BENCH_STORAGE=0
// leaves it out), or alone: DATABASE_URL=postgres://… npx tsx bench/storage-breakdown.ts. Either writes
// bench/results/storage.json.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import { settleDuePayouts } from '../lib/payments/payouts/settlement';
import { purgeOldEvents } from '../lib/payments/webhooks/event-retention';
import type { Db } from '../lib/db/types';
import { createSchemaUrl, dropSchemas, postgresUrl } from '../testing/databases';
import { startInProcessApi } from '../testing/in-process-api';
import { runProvenance, type RunProvenance } from './run-provenance';
import { payoutUpdates, vacuumSchema } from './settlement-backlog';

const N = Number(process.env.STORAGE_PAYOUTS ?? 20_000);

export interface StorageFigures {
  payouts: number;
  /** Bytes per settled payout, tables and indexes, with the events still within their retention. */
  bytesWithinRetention: number;
  /** The same once the events are past their retention and purged. */
  bytesPurged: number;
  /** The share of settlement's updates of payouts that were HOT. */
  hotShare: number;
}

export async function storageBreakdown(): Promise<StorageFigures> {
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 4 });
  const api = await startInProcessApi(db, {
    openingBalance: 1_000_000_000_000,
    merchantName: 'Busy',
    settings: { settlementDelaySeconds: 0 },
  });
  for (let b = 0; b < N / 1000; b++) {
    const payouts = Array.from({ length: 1000 }, (_, i) => ({
      amount: 10_000 + i,
      bank_code: 'BCA',
      account_number: i % 50 === 0 ? '4000000002' : String(1_000_000_000 + (((b * 1000 + i) * 7919) % 8_999_999_999)),
      reference: `vol-${b}-${i}`,
    }));
    const res = await api.call({ action: 'create_payout_batch', payouts }, randomUUID());
    if (res.status !== 200) throw new Error(res.text);
  }
  const before = await payoutUpdates(db);
  while ((await settleDuePayouts(db, { batchSize: 1000, maxBatches: 100 })).paid > 0);
  await api.close();
  const [pending] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE status = 'pending'`);
  if (pending!.n > 0) throw new Error(`${pending!.n} payouts left pending`);
  // An idle backend reports its statistics within 10 s (PGSTAT_IDLE_INTERVAL).
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const after = await payoutUpdates(db);
  const upd = after.upd - before.upd;
  const hot = after.hot - before.hot;
  process.stdout.write(`settlement's updates of payouts: ${upd}, HOT ${hot} (${((100 * hot) / Math.max(upd, 1)).toFixed(1)}%)\n\n`);
  await report(db, `${N} payouts, all settled, after VACUUM, events within their retention`);
  // payout_states held the whole backlog a moment ago: its freed pages are what the next backlog fills, not a
  // cost of each settled payout; compacted, it holds the failed payouts' rows alone.
  const bytesWithinRetention = await report(db, `\nThe same, payout_states at its live size (VACUUM FULL)`, ['payout_states']);
  process.stdout.write(`\nevents purged: ${await purgeOldEvents(db, 0)}\n`);
  // Likewise the purged events' pages: the next days' events fill them.
  const bytesPurged = await report(db, `\nEvents past their retention (purged), events at their live size (VACUUM FULL)`, [
    'payout_states',
    'events',
  ]);
  await db.close();
  return { payouts: N, bytesWithinRetention, bytesPurged, hotShare: hot / Math.max(upd, 1) };
}

export const STORAGE_RESULTS = path.join(__dirname, 'results/storage.json');

export function writeStorageResults(figures: StorageFigures, provenance: RunProvenance): void {
  fs.writeFileSync(STORAGE_RESULTS, JSON.stringify({ ...provenance, ...figures }, null, 2) + '\n');
}

/** Prints the breakdown; returns the bytes per settled payout. */
async function report(db: Db, title: string, compact: string[] = []): Promise<number> {
  for (const table of compact) await db.exec(`VACUUM FULL ${table}`);
  await vacuumSchema(db);
  const rows = await db.query<{ table: string; name: string; bytes: number }>(
    `SELECT t.relname AS table, t.relname || ' (heap+toast)' AS name, pg_table_size(t.oid) AS bytes FROM pg_class t
       WHERE t.relkind = 'r' AND t.relnamespace = current_schema()::regnamespace
     UNION ALL
     SELECT t.relname, i.relname, pg_relation_size(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       WHERE t.relnamespace = current_schema()::regnamespace
     ORDER BY 3 DESC`,
  );
  const total = rows.reduce((s, r) => s + Number(r.bytes), 0);
  process.stdout.write(`${title}: ${Math.round(total / N)} bytes per settled payout\n| relation | bytes per payout |\n|---|---:|\n`);
  for (const r of rows) if (Number(r.bytes) / N >= 1) process.stdout.write(`| ${r.name} | ${Math.round(Number(r.bytes) / N)} |\n`);
  return Math.round(total / N);
}

if (process.argv[1]?.endsWith('/bench/storage-breakdown.ts'))
  runProvenance(postgresUrl)
    .then(async (provenance) => {
      const figures = await storageBreakdown();
      await dropSchemas();
      writeStorageResults(figures, provenance);
      process.stdout.write(`\n${JSON.stringify(figures)}\nWritten to ${path.relative(process.cwd(), STORAGE_RESULTS)}\n`);
      process.exit(0);
    })
    .catch((error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    });
