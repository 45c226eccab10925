// A CPU profile of one npm start server under the busy-merchant load (64 clients, one merchant), and
// where its time went. `npx tsx bench/profile-withdraw.ts` (WITHDRAW_GROUP_COMMIT=false to compare);
// the summary in docs/prove.md comes from here. Start-up is left out: only samples taken under load count.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import { createMerchant } from '../lib/payments/merchants/merchants';
import { createSchemaUrl, dropSchemas, postgresUrl } from '../testing/databases';
import { ensureNextBuild } from '../testing/next-build';
import { ServerProcess } from '../testing/server-process';
import { cpuProfileSummary } from './cpu-profile-summary';
import { drive, type Drive } from './drive';
import { cpuReader, cpuSpent } from './process-cpu';
import { API_PATH } from '../testing/api-path';

const CLIENTS = Number(process.env.CLIENTS ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function main() {
  if (!postgresUrl) throw new Error('the profile runs on PostgreSQL: set DATABASE_URL');
  const appName = `profile_${randomUUID().slice(0, 8)}`;
  const url = new URL(await createSchemaUrl(postgresUrl));
  const db = await openDb({ databaseUrl: url.toString(), poolSize: 2 });
  const merchant = await createMerchant(db, { name: 'Profiled', openingBalance: 1_000_000_000_000 });
  url.searchParams.set('application_name', appName);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'withdraw-profile-'));
  const spawned = performance.now();
  const server = await new ServerProcess({
    kind: 'next',
    databaseUrl: url.toString(),
    distDir: await ensureNextBuild(),
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    env: { LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '12', WITHDRAW_GROUP_COMMIT: process.env.WITHDRAW_GROUP_COMMIT ?? 'true' },
  }).start();
  const d: Drive = {
    path: API_PATH,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${merchant.secretKey}` },
    body: { action: 'withdraw', amount: 10_000, bank_code: 'BCA', account_number: '1234567890' },
    uniqueKey: 'header',
  };
  await drive(server.url, d, CLIENTS, 2); // warm-up
  const cpu = await cpuReader(postgresUrl, appName);
  const loadFromMs = performance.now() - spawned;
  const before = await cpu.read(server.pid!);
  const r = await drive(server.url, d, CLIENTS, SECONDS);
  const spent = cpuSpent(before, await cpu.read(server.pid!));
  const loadToMs = performance.now() - spawned;
  await cpu.close();
  await server.stop();
  const file = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort()[0]!;
  const s = cpuProfileSummary(file, { fromMs: loadFromMs, toMs: loadToMs, top: 25 });
  const n = r.requests.total;
  process.stdout.write(
    `${CLIENTS} clients, ${Math.round(r.requests.average)} withdrawals/s; CPU per withdrawal: server ${(spent.serverMs / n).toFixed(3)} ms, PostgreSQL ${(spent.databaseMs / n).toFixed(3)} ms\n` +
      `profile under load: ${Math.round(s.busyMs)} ms busy of ${Math.round(s.totalMs)} ms sampled\n-- self time by area (of busy)\n${s.areas.join('\n')}\n` +
      `-- self time by function (of busy)\n${s.functions.join('\n')}\n-- inclusive time (of busy)\n${s.inclusive.join('\n')}\n`,
  );
  await db.close();
  await dropSchemas();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`profile failed: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
