// The volume section's report (bench/volume.ts measures it): each read against its target, and the sizes.
// Pure, so that docs/benchmarks.md is written from bench/results/volume.json without running anything.
import type { ReadFigure, VolumeFigures } from './volume';

const REPS = Number(process.env.BENCH_VOLUME_REPS ?? 40);
/** Each read's targets, by kind. */
export const TARGET_MS: Record<ReadFigure['kind'], { p50: number; p99: number }> = {
  action: { p50: 20, p99: 100 },
  summary: { p50: 50, p99: 100 },
  console: { p50: 150, p99: 150 },
};
/** The embedded database: every page under a second at its size. */
const EMBEDDED_MS = { p50: 1000, p99: 1000 };

const MIX_WORDS: Record<NonNullable<VolumeFigures['mix']>, string> = {
  settled: 'every payout settled',
  pending: 'every payout pending (settlement a day away)',
  half: 'half settled (a tenth of all failed), half pending',
};

export function volumeReport(f: VolumeFigures): string[] {
  const [a, b] = f.sizes;
  const embedded = f.mode === 'embedded';
  const mix = MIX_WORDS[f.mix ?? 'settled'];
  const lines = [
    embedded
      ? `Volume, embedded database: ${a?.toLocaleString('en-US')} payouts (npm start on DATA_DIR; ${REPS} sequential requests per read after one warm-up; page of 20; target: under a second)`
      : `Volume, ${mix}: ${a?.toLocaleString('en-US')} and ${b?.toLocaleString('en-US')} payouts (PostgreSQL, npm start; ${REPS} sequential requests per read after one warm-up; page of 20)`,
  ];
  if (f.readsWithoutStatistics) {
    const analyzed = (f.analyzedDuringReadsWithoutStatistics ?? []).map((t) => (t.length ? t.join(', ') : 'none'));
    lines.push(
      `Without planner statistics (deleted after the load, the server started again with TABLE_STATISTICS=off; tables with statistics by the end, per size: ${analyzed.join('; ') || 'none'}):`,
      '',
      ...readsTable(f.readsWithoutStatistics, embedded),
      '',
      'With statistics (after ANALYZE):',
      '',
    );
  }
  lines.push(...readsTable(f.reads, embedded));
  lines.push(
    '',
    '| size | build s | payouts/s sent | settled/s while sending | drain waited s | still pending when timed | export rows/s | statement CSV lines/s (target ≥ 10,000) | bytes per payout (tables + indexes; no target) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  f.sizes.forEach((s, i) =>
    lines.push(
      `| ${s.toLocaleString('en-US')} | ${f.buildSeconds[i]} | ${f.payoutsPerSecond[i]} | ${f.settledPerSecondDuringBuild[i]} | ${f.settleDrainSeconds[i]} | ${f.pendingWhenTimed[i]} | ${f.exportRowsPerSecond[i]} | ${f.statementLinesPerSecond[i] ?? ''} | ${f.bytesPerPayout[i]} |`,
    ),
  );
  const last = f.tables.at(-1) ?? {};
  lines.push(
    '',
    `On disk at ${(b ?? a)?.toLocaleString('en-US')} payouts (MB): ${Object.entries(last)
      .filter(([, v]) => v > 1_000_000)
      .map(([k, v]) => `${k} ${Math.round(v / 1e6)}`)
      .join(', ')}`,
  );
  return lines;
}

function readsTable(reads: ReadFigure[], embedded: boolean): string[] {
  const lines = ['| read | p50 ms 1x | p99 ms 1x | p50 ms 2x | p99 ms 2x | growth p50 | target |', '|---|---:|---:|---:|---:|---:|---|'];
  for (const r of reads) {
    const t = embedded ? EMBEDDED_MS : TARGET_MS[r.kind];
    const growth = r.p50[1] !== undefined ? Math.round((r.p50[1] / Math.max(r.p50[0]!, 0.1)) * 100) / 100 : NaN;
    // Growth from 1x to 2x is judged as at most 1.2x or +2 ms, whichever is larger (below a few
    // milliseconds a ratio is noise); the query-plan test is the real guard.
    const grew = r.p50[1] !== undefined && r.p50[1] > Math.max(r.p50[0]! * 1.2, r.p50[0]! + 2);
    const met = r.p50.every((x) => x <= t.p50) && r.p99.every((x) => x <= t.p99) && !grew;
    const want = embedded
      ? '< 1 s'
      : r.kind === 'console'
        ? `≤${t.p50} ms, growth ≤1.2× or +2 ms`
        : `p50 ≤${t.p50}, p99 ≤${t.p99}, growth ≤1.2× or +2 ms`;
    lines.push(
      `| ${r.name} | ${r.p50[0]} | ${r.p99[0]} | ${r.p50[1] ?? ''} | ${r.p99[1] ?? ''} | ${growth}× | ${want}: ${met ? 'met' : 'NOT met'} |`,
    );
  }
  return lines;
}
