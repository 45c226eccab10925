// npm run bench: autocannon against get_balance and withdraw on each mount, beside the floor, in one run.
// Not pass/fail: prints req/s, p50, p99, the ratio to the floor and memory; writes bench/results/latest.json (and the
// results files of the sections with runs of their own), then docs/benchmarks.md from them (bench/write-benchmarks-md.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSchemaUrl, dropSchemas, postgresUrl } from '../testing/databases';
import { ensureNextBuild } from '../testing/next-build';
import type { ServerKind } from '../testing/server-process';
import { report, writeVolumeResults } from './bench-report';
import { runProvenance } from './run-provenance';
import { writeBenchmarksPage } from './write-benchmarks-md';
import { busyMerchant, writeBusyResults } from './busy-merchant';
import { figuresCost } from './figures-cost';
import { serverCases, type Mode, type ModeFigures, type Variant } from './server-cases';
import { sandboxBench, writeSandboxResults, type SandboxFigures } from './sandboxes';
import { settlementBench, writeSettlementResults, type SettlementFigures } from './settlement';
import { storageBreakdown, writeStorageResults } from './storage-breakdown';
import { volumeBench, type VolumeFigures, type VolumeMix } from './volume';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 2);
/**
 * Rounds of every case, interleaved and in a new order each round, so that a burst of load from
 * elsewhere on a shared machine hits all servers alike. Figures are medians over rounds; the ratio
 * to the floor is taken within each round first (a paired comparison), then its median.
 */
// Three rounds of 2 s: the whole run must fit in 10 minutes beside
// the settlement case's fixed four (a million payouts written and settled, then two minutes of arrival and the drain).
// Each run of 2 s at 8 connections is 200 (embedded withdrawals) to 3,000 requests.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
/** Comma lists narrow a run while working on one case (BENCH_MODES=postgres BENCH_SERVERS=standalone); the floor always runs. */
const only = <T extends string>(name: string, all: readonly T[]): T[] => {
  const wanted = process.env[name]?.split(',').map((s) => s.trim());
  return wanted ? all.filter((x) => wanted.includes(x)) : [...all];
};
const MODES = only('BENCH_MODES', postgresUrl ? (['postgres', 'embedded'] as const) : (['embedded'] as const));
/** BENCH_ONLY_REQUEST_LOG=1: the cost of the request log alone; BENCH_REQUEST_LOG=0 leaves it out. */
const ONLY_REQUEST_LOG = process.env.BENCH_ONLY_REQUEST_LOG === '1';
/** BENCH_ONLY_WEBHOOKS=1: the cost of events and webhooks alone; BENCH_WEBHOOKS=0 leaves it out. */
const ONLY_WEBHOOKS = process.env.BENCH_ONLY_WEBHOOKS === '1';
/** BENCH_ONLY_FIGURES=1: what the per-day figures' triggers cost withdrawals of a busy merchant (PostgreSQL); BENCH_FIGURES=0 leaves it out. */
const ONLY_FIGURES = process.env.BENCH_ONLY_FIGURES === '1';
/** Those three are measured in the rounds, beside the standalone server: their runs need no other. */
const BESIDE_STANDALONE_ONLY = ONLY_REQUEST_LOG || ONLY_WEBHOOKS || ONLY_FIGURES;
const KINDS: ServerKind[] = [
  'floor',
  ...(BESIDE_STANDALONE_ONLY ? (['standalone'] as const) : only('BENCH_SERVERS', ['standalone', 'next'] as const)),
];
const ACTIONS = only('BENCH_ACTIONS', ['get_balance', 'withdraw'] as const);
const CONSOLE = process.env.BENCH_CONSOLE !== '0' && KINDS.includes('next');
/** The busy-merchant section (PostgreSQL): hot-row limit, one merchant at 8 and 64 clients, 64 merchants, batches. */
const BUSY = process.env.BENCH_BUSY !== '0' && MODES.includes('postgres');
/** A narrowed run prints its figures but leaves bench/results/latest.json to full runs. */
const NARROWED = [
  'BENCH_MODES',
  'BENCH_SERVERS',
  'BENCH_ACTIONS',
  'BENCH_CONSOLE',
  'BENCH_BUSY',
  'BENCH_ONLY_BUSY',
  'BENCH_WEBHOOKS',
  'BENCH_ONLY_WEBHOOKS',
  'BENCH_REQUEST_LOG',
  'BENCH_ONLY_REQUEST_LOG',
  'BENCH_ONLY_VOLUME',
  'BENCH_ONLY_FIGURES',
  'BENCH_SETTLEMENT',
  'BENCH_ONLY_SETTLEMENT',
  'BENCH_SANDBOXES',
  'BENCH_ONLY_SANDBOXES',
  'BENCH_STORAGE',
  'BENCH_ONLY_STORAGE',
].some((name) => process.env[name]);
/** BENCH_ONLY_BUSY=1: the busy-merchant section alone. */
const ONLY_BUSY = process.env.BENCH_ONLY_BUSY === '1';
/**
 * BENCH_ONLY_VOLUME=1: a busy merchant's history alone (bench/volume.ts; PostgreSQL), at BENCH_VOLUME_SIZE
 * payouts (default 1,000,000) and twice that. It takes far longer than the rest, so a full run includes it
 * only with BENCH_VOLUME=1.
 */
const ONLY_VOLUME = process.env.BENCH_ONLY_VOLUME === '1';
const VOLUME_SIZE = Number(process.env.BENCH_VOLUME_SIZE ?? 1_000_000);
const VOLUME_EMBEDDED_SIZE = Number(process.env.BENCH_VOLUME_EMBEDDED_SIZE ?? 100_000);
const VOLUME_MIXES = (process.env.BENCH_VOLUME_MIXES ?? 'pending,settled,half').split(',') as VolumeMix[];
/**
 * BENCH_ONLY_SETTLEMENT=1: settlement alone (bench/settlement.ts; PostgreSQL): BENCH_SETTLE_PAYOUTS due payouts
 * (default 1,000,000) settled with no other load, then BENCH_SETTLE_ARRIVAL_S (120) of batches at full speed with
 * settlement on and the drain; BENCH_SETTLEMENT=0 leaves it out.
 */
const ONLY_SETTLEMENT = process.env.BENCH_ONLY_SETTLEMENT === '1';
/** BENCH_ONLY_SANDBOXES=1: create_sandbox and delete_sandbox alone (bench/sandboxes.ts; PostgreSQL); BENCH_SANDBOXES=0 leaves them out. */
const ONLY_SANDBOXES = process.env.BENCH_ONLY_SANDBOXES === '1';
/** BENCH_ONLY_STORAGE=1: a settled payout's bytes alone (bench/storage-breakdown.ts; PostgreSQL); BENCH_STORAGE=0 leaves it out. */
const ONLY_STORAGE = process.env.BENCH_ONLY_STORAGE === '1';
const ONLY_ONE =
  ONLY_BUSY || ONLY_WEBHOOKS || ONLY_REQUEST_LOG || ONLY_VOLUME || ONLY_FIGURES || ONLY_SETTLEMENT || ONLY_SANDBOXES || ONLY_STORAGE;
const STORAGE = postgresUrl !== undefined && (ONLY_STORAGE || (!ONLY_ONE && process.env.BENCH_STORAGE !== '0'));
const SANDBOXES = postgresUrl !== undefined && (ONLY_SANDBOXES || (!ONLY_ONE && process.env.BENCH_SANDBOXES !== '0'));
const SETTLEMENT = postgresUrl !== undefined && (ONLY_SETTLEMENT || (!ONLY_ONE && process.env.BENCH_SETTLEMENT !== '0'));
const FIGURES = postgresUrl !== undefined && (ONLY_FIGURES || (!ONLY_ONE && process.env.BENCH_FIGURES !== '0'));
const VOLUME = ONLY_VOLUME || (!ONLY_ONE && process.env.BENCH_VOLUME === '1');
const WEBHOOKS = ONLY_WEBHOOKS || (!ONLY_ONE && process.env.BENCH_WEBHOOKS !== '0');
const REQUEST_LOG = ONLY_REQUEST_LOG || (!ONLY_ONE && process.env.BENCH_REQUEST_LOG !== '0' && KINDS.includes('standalone'));
/** The modes whose servers run the rounds: none for a section that has servers of its own. */
const ROUND_MODES: Mode[] =
  ONLY_BUSY || ONLY_VOLUME || ONLY_SETTLEMENT || ONLY_SANDBOXES || ONLY_STORAGE
    ? []
    : ONLY_FIGURES
      ? MODES.filter((m) => m === 'postgres')
      : MODES;
/** The servers of a mode's rounds (bench/server-cases.ts): the floor and the servers, beside them the variants that each measure one cost. */
function variantsOf(mode: Mode): Variant[] {
  const beside = KINDS.includes('standalone');
  return [
    ...KINDS,
    ...(REQUEST_LOG && beside ? (['unlogged'] as const) : []),
    ...(WEBHOOKS && beside && ACTIONS.includes('withdraw') ? (['hooked'] as const) : []),
    ...(FIGURES && beside && mode === 'postgres' && ACTIONS.includes('withdraw') ? (['unfigured'] as const) : []),
  ];
}

/** Wall seconds of each section of the run, printed and kept in latest.json: where the bench's minutes go. */
const sections: { name: string; seconds: number }[] = [];
async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    sections.push({ name, seconds: Math.round((performance.now() - started) / 100) / 10 });
  }
}

async function main() {
  const runStarted = performance.now();
  // Before the run writes anything: the commit and the state of the work tree measured.
  const provenance = await runProvenance(postgresUrl);
  const distDir = await timed('next build (when stale)', () => ensureNextBuild());
  const modes: ModeFigures[] = [];
  const rounds = { rounds: ROUNDS, seconds: DURATION_S, connections: CONNECTIONS, actions: ACTIONS };
  for (const mode of ROUND_MODES)
    modes.push(
      await timed(`servers against the floor, ${mode}`, () =>
        serverCases(mode, distDir, { ...rounds, variants: variantsOf(mode), console: CONSOLE }, timed),
      ),
    );
  const busy =
    (BUSY && !ONLY_ONE) || ONLY_BUSY
      ? await timed('busy merchant', async () => busyMerchant(await createSchemaUrl(), distDir, DURATION_S, Math.min(ROUNDS, 3)))
      : undefined;
  if (busy) writeBusyResults(busy, provenance);
  const figures64 = FIGURES
    ? await timed('per-day figures, 64 connections', () => figuresCost(distDir, { connections: [64], seconds: DURATION_S, rounds: ROUNDS }))
    : [];
  const settlement: SettlementFigures | undefined = SETTLEMENT
    ? await timed('settlement', () =>
        settlementBench({
          backlog: Number(process.env.BENCH_SETTLE_PAYOUTS ?? 1_000_000),
          arrivalSeconds: Number(process.env.BENCH_SETTLE_ARRIVAL_S ?? 120),
          senders: Number(process.env.BENCH_SETTLE_SENDERS ?? 4),
          distDir,
        }),
      )
    : undefined;
  if (settlement) writeSettlementResults(settlement, provenance);
  const sandboxes: SandboxFigures | undefined = SANDBOXES ? await timed('sandboxes', () => sandboxBench()) : undefined;
  if (sandboxes) writeSandboxResults(sandboxes, provenance);
  // Bytes per settled payout and the HOT share, reported without a target; written to bench/results/storage.json.
  if (STORAGE) await writeStorageResults(await timed("a settled payout's bytes", () => storageBreakdown()), provenance);
  const volume: VolumeFigures[] = [];
  // PostgreSQL in each mix of statuses (BENCH_VOLUME_MIXES, default all three), each in a schema of its own.
  if (VOLUME && MODES.includes('postgres'))
    for (const mix of VOLUME_MIXES) {
      volume.push(
        await timed(`volume, postgres, ${mix}`, async () =>
          volumeBench({ databaseUrl: await createSchemaUrl() }, distDir, VOLUME_SIZE, false, mix),
        ),
      );
      writeVolumeResults(provenance, volume);
    }
  // The embedded database at its own size (BENCH_VOLUME_EMBEDDED_SIZE, default 100,000; 0 leaves it out), once.
  if (VOLUME && MODES.includes('embedded') && VOLUME_EMBEDDED_SIZE > 0) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-volume-'));
    volume.push(await timed('volume, embedded', () => volumeBench({ dataDir }, distDir, VOLUME_EMBEDDED_SIZE, true)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await dropSchemas();
  sections.push({ name: 'the whole run', seconds: Math.round((performance.now() - runStarted) / 100) / 10 });
  const settings = { connections: CONNECTIONS, durationSeconds: DURATION_S, rounds: ROUNDS };
  report({ provenance, settings, modes, busy, figures64, settlement, sandboxes, volume, sections, narrowed: NARROWED });
  // docs/benchmarks.md is the results files, rendered: rewritten whenever this run wrote one.
  if (!NARROWED || volume.length > 0 || STORAGE || sandboxes || settlement || busy)
    process.stdout.write(`Written to ${writeBenchmarksPage()}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error?.stack ?? error}\n`);
  process.exit(1);
});
