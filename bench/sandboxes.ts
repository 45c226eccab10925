// Sandboxes (docs/testing-your-integration.md) through the API on PostgreSQL, in process over real HTTP:
// create_sandbox one after another (p50) and 64 at once (wall time), delete_sandbox of sandboxes holding
// 1,000 payouts each (p50), and the purge of their rows; get_balance's p50 on the same server is the floor.
// Alone: BENCH_ONLY_SANDBOXES=1 npm run bench, or DATABASE_URL=postgres://… npx tsx bench/sandboxes.ts
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../lib/db/open-db';
import { purgeSandboxes } from '../lib/payments/sandboxes/sandbox-purge';
import { createSchemaUrl, dropSchemas } from '../testing/databases';
import { startInProcessApi } from '../testing/in-process-api';
import { median } from './paired';
import { runProvenance, type RunProvenance } from './run-provenance';

export interface SandboxFigures {
  floorP50Ms: number;
  createP50Ms: number;
  parallel64Ms: number;
  deleteP50Ms: number;
  payoutsPerDeleted: number;
  purgeMsPerSandbox: number;
}

export const SANDBOX_TARGETS = { createP50Ms: 50, parallel64Ms: 3000, deleteP50Ms: 50 } as const;
const TARGETS = SANDBOX_TARGETS;

/** bench/results/sandboxes.json, rendered on docs/benchmarks.md: written by every run that measured them. */
export const SANDBOX_RESULTS = path.join(__dirname, 'results/sandboxes.json');
export function writeSandboxResults(figures: SandboxFigures, provenance: RunProvenance): void {
  fs.writeFileSync(SANDBOX_RESULTS, JSON.stringify({ ...provenance, ...figures }, null, 2) + '\n');
}

async function timedMs(run: () => Promise<{ status: number; text: string }>): Promise<number> {
  const started = performance.now();
  const res = await run();
  if (res.status !== 200) throw new Error(`sandbox bench: ${res.status} ${res.text}`);
  return performance.now() - started;
}

export async function sandboxBench(opts: { creates?: number; deletes?: number } = {}): Promise<SandboxFigures> {
  const { creates = 40, deletes = 10 } = opts;
  const db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 10 });
  const api = await startInProcessApi(db, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 3600 } });
  try {
    for (let i = 0; i < 10; i++) await api.call({ action: 'get_balance' }); // warm-up
    const floor: number[] = [];
    for (let i = 0; i < creates; i++) floor.push(await timedMs(() => api.call({ action: 'get_balance' })));
    const made: { id: string; secret_key: string }[] = [];
    const create: number[] = [];
    for (let i = 0; i < creates; i++) {
      create.push(
        await timedMs(async () => {
          const res = await api.call({ action: 'create_sandbox', balance: 100_000_000 }, `bench-${i}`);
          made.push(res.body);
          return res;
        }),
      );
    }
    // 1,000 payouts in each of the first `deletes` sandboxes (one batch each), then deleted one by one.
    const batch = Array.from({ length: 1000 }, () => ({ amount: 10_000, bank_code: 'BCA', account_number: '1234567890' }));
    for (const s of made.slice(0, deletes)) {
      const res = await api.call({ action: 'create_payout_batch', payouts: batch }, undefined, s.secret_key);
      if (res.status !== 200) throw new Error(`sandbox bench: batch ${res.status} ${res.text}`);
    }
    const del: number[] = [];
    for (const s of made) {
      const ms = await timedMs(() => api.call({ action: 'delete_sandbox', id: s.id }));
      if (del.length < deletes) del.push(ms);
    }
    const purgeStarted = performance.now();
    const purged = await purgeSandboxes(db, { graceSeconds: 0, maxSandboxes: made.length });
    const purgeMsPerSandbox = (performance.now() - purgeStarted) / Math.max(1, purged);

    const parallelStarted = performance.now();
    const parallel = await Promise.all(Array.from({ length: 64 }, () => api.call({ action: 'create_sandbox' })));
    const parallel64Ms = performance.now() - parallelStarted;
    if (parallel.some((r) => r.status !== 200)) throw new Error(`sandbox bench: 64 at once: ${parallel.map((r) => r.status).join(',')}`);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      floorP50Ms: round(median(floor)),
      createP50Ms: round(median(create)),
      parallel64Ms: Math.round(parallel64Ms),
      deleteP50Ms: round(median(del)),
      payoutsPerDeleted: 1000,
      purgeMsPerSandbox: Math.round(purgeMsPerSandbox),
    };
  } finally {
    await api.close();
    await db.close();
  }
}

export function sandboxReport(f: SandboxFigures): string[] {
  const verdict = (value: number, target: number) => `${value <= target ? 'met' : 'NOT met'}`;
  return [
    `Sandboxes (PostgreSQL, in process over HTTP; get_balance p50 on the same server, the floor: ${f.floorP50Ms} ms)`,
    '| figure | value | ratio to the floor | target |',
    '|---|---:|---:|---|',
    `| create_sandbox p50 | ${f.createP50Ms} ms | ${(f.createP50Ms / f.floorP50Ms).toFixed(1)}x | ≤ ${TARGETS.createP50Ms} ms: ${verdict(f.createP50Ms, TARGETS.createP50Ms)} |`,
    `| 64 create_sandbox at once | ${f.parallel64Ms} ms | | ≤ ${TARGETS.parallel64Ms} ms: ${verdict(f.parallel64Ms, TARGETS.parallel64Ms)} |`,
    `| delete_sandbox p50, ${f.payoutsPerDeleted} payouts each | ${f.deleteP50Ms} ms | ${(f.deleteP50Ms / f.floorP50Ms).toFixed(1)}x | ≤ ${TARGETS.deleteP50Ms} ms: ${verdict(f.deleteP50Ms, TARGETS.deleteP50Ms)} |`,
    `| purge (background job), per sandbox | ${f.purgeMsPerSandbox} ms | | |`,
  ];
}

if (require.main === module) {
  sandboxBench()
    .then(async (f) => {
      process.stdout.write(sandboxReport(f).join('\n') + '\n');
      writeSandboxResults(f, await runProvenance(process.env.DATABASE_URL));
      await dropSchemas();
    })
    .catch((error) => {
      process.stderr.write(`sandbox bench failed: ${error?.stack ?? error}\n`);
      process.exit(1);
    });
}
