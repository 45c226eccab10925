// Where each read scans, before and after the read indexes (docs/prove.md, "Reads at volume"): a merchant
// with EXPLAIN_PAYOUTS payouts (default 200,000) written straight into a PostgreSQL schema at the version
// before migration 012, every read of testing/read-plans.ts run through the API with its statements
// EXPLAIN ANALYZEd; then migration 012 builds the indexes and the same reads are explained again.
// Run: DATABASE_URL=postgres://… npx tsx bench/explain-reads.ts
import { migrate } from '../lib/db/migrate';
import { migrations } from '../lib/db/migrations';
import { openPostgresDb } from '../lib/db/postgres-db';
import { createMerchant } from '../lib/payments/merchants/merchants';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { explain, historyReads, readCatalog, recording, type PlanSummary, type Recorded } from '../testing/read-plans';
import { startInProcessApi } from '../testing/in-process-api';
import { analyzeSchema, writeHistory } from '../testing/volume-data';

const N = Number(process.env.EXPLAIN_PAYOUTS ?? 200_000);

async function main() {
  const db = openPostgresDb(await createSchemaUrl(), 5);
  await migrate(
    db,
    migrations.filter((m) => m.version !== 12),
  );
  const other = await createMerchant(db, { name: 'Other', openingBalance: 0 });
  const [otherKey] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [other.id]);
  await writeHistory(db, { merchantId: other.id, keyId: otherKey!.id, n: N / 4, tag: 'o' });
  const log: Recorded[] = [];
  const api = await startInProcessApi(recording(db, log), {
    openingBalance: 1_000_000_000,
    merchantName: 'Busy',
    settings: { settlementDelaySeconds: 3 },
  });
  const endpoint = (await api.call({ action: 'create_webhook_endpoint', url: 'https://example.com/hook' })).body;
  const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [api.merchant.id]);
  await writeHistory(db, { merchantId: api.merchant.id, keyId: key!.id, endpointId: endpoint.id, n: N, tag: 'm' });
  const batch = (
    await api.call({ action: 'create_payout_batch', payouts: [{ amount: 10_000, bank_code: 'BCA', account_number: '5550001234' }] })
  ).body;
  const ids = {
    endpoint: endpoint.id,
    key: key!.id,
    batch: batch.id,
    deep: `po_m${N / 2}`,
    deepEvent: `evt_m${N / 2}0`,
    deepTxn: `txn_${N}`,
  };
  const reads = readCatalog(ids, N);

  const run = async () => {
    const out: Omit<PlanSummary, 'rowsByTable'>[] = [];
    for (const [action, input] of reads) {
      log.length = 0;
      const res = await api.call({ action, ...input() });
      if (res.status !== 200) throw new Error(`${action} answered ${res.status}: ${res.text}`);
      const plans = await Promise.all(historyReads(log).map((s) => explain(db, s)));
      out.push({
        scans: plans.flatMap((p) => p.scans),
        rowsRead: plans.reduce((s, p) => s + p.rowsRead, 0),
        ms: plans.reduce((s, p) => s + p.ms, 0),
      });
    }
    return out;
  };
  const before = await run();
  const t = performance.now();
  await migrate(db);
  await analyzeSchema(db);
  const built = performance.now() - t;
  const after = await run();
  const short = (scans: string[]) =>
    [
      ...new Set(
        scans.map((s) =>
          s
            .replace('Index Only Scan', 'IOS')
            .replace('Index Scan Backward', 'Idx↑')
            .replace('Index Scan', 'Idx')
            .replace('Bitmap Heap Scan', 'Bitmap')
            .replace('Bitmap Index Scan', 'BmpIdx'),
        ),
      ),
    ].join(', ');
  const lines = [
    `${N.toLocaleString('en-US')} payouts of one merchant (and ${(N / 4).toLocaleString('en-US')} of another); PostgreSQL; indexes of migration 012 built in ${Math.round(built / 1000)} s`,
    '| read | before: scans | rows read | ms | after: scans | rows read | ms |',
    '|---|---|---:|---:|---|---:|---:|',
  ];
  reads.forEach(([action, input], i) => {
    const args = JSON.stringify(input())
      .replace(/"/g, '')
      .replace(/T00:00:00.000Z/g, '')
      .slice(0, 60);
    lines.push(
      `| ${action} ${args} | ${short(before[i]!.scans)} | ${before[i]!.rowsRead} | ${before[i]!.ms.toFixed(1)} | ${short(after[i]!.scans)} | ${after[i]!.rowsRead} | ${after[i]!.ms.toFixed(1)} |`,
    );
  });
  process.stdout.write(lines.join('\n') + '\n');
  await api.close();
  await db.close();
  await dropSchemas();
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
