// The volume section's report (bench/volume.ts measures it): each read against its target, and the sizes.
// Pure, so that docs/benchmarks.md is written from bench/results/volume.json without running anything.
import type { ActivitySpent } from './background-activity';
import { judge } from './verdict';
import type { ReadFigure, VolumeFigures } from './volume';
import { FLOOR } from './volume-floors';

/** Each read's targets, by kind (a floor has none). */
export const TARGET_MS: Record<Exclude<ReadFigure['kind'], 'floor'>, { p50: number; p99: number }> = {
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
  const timing = f.rounds
    ? `${f.rounds} rounds of every read in turn after one warm-up round`
    : '40 sequential requests per read after one warm-up';
  const lines = [
    embedded
      ? `Volume, embedded database: ${a?.toLocaleString('en-US')} payouts (npm start on DATA_DIR; ${timing}; page of 20; target: under a second)`
      : `Volume, ${mix}: ${a?.toLocaleString('en-US')} and ${b?.toLocaleString('en-US')} payouts (PostgreSQL, npm start; ${timing}; page of 20)`,
  ];
  if (f.readsWithoutStatistics) {
    const analyzed = (f.analyzedDuringReadsWithoutStatistics ?? []).map((t) => (t.length ? t.join(', ') : 'none'));
    lines.push(
      `Without planner statistics (deleted after the load, the server started again with TABLE_STATISTICS=off; tables with statistics by the end, per size: ${analyzed.join('; ') || 'none'}):`,
      '',
      ...readsTable(f.readsWithoutStatistics, embedded),
      ...besideTheReads(f.activityWithoutStatistics, f.sizes),
      '',
      'With statistics (after ANALYZE):',
      '',
    );
  }
  lines.push(...readsTable(f.reads, embedded), ...besideTheReads(f.activity, f.sizes));
  lines.push(
    '',
    '| size | build s | payouts/s sent | settled/s while sending | drain waited s | still pending when timed | export rows/s | statement CSV lines/s | bytes per payout (tables + indexes; no target) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  f.sizes.forEach((s, i) =>
    lines.push(
      `| ${s.toLocaleString('en-US')} | ${f.buildSeconds[i]} | ${f.payoutsPerSecond[i]} | ${f.settledPerSecondDuringBuild[i]} | ${f.settleDrainSeconds[i]} | ${f.pendingWhenTimed[i]} | ${f.exportRowsPerSecond[i]} | ${f.statementLinesPerSecond[i] ?? ''} | ${f.bytesPerPayout[i]} |`,
    ),
  );
  lines.push(...statementVerdict(f));
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

/** A month's statement streamed as CSV, on PostgreSQL: at least STATEMENT_LINES_PER_S lines a second at every size. */
const STATEMENT_LINES_PER_S = 10_000;
function statementVerdict(f: VolumeFigures): string[] {
  if (f.mode === 'embedded' || !f.statementLinesPerSecond.length) return [];
  const judged = f.sizes.map((size, i) => {
    const rate = f.statementLinesPerSecond[i];
    if (rate === undefined) return `${size.toLocaleString('en-US')} payouts not measured`;
    const verdict = judge(rate, STATEMENT_LINES_PER_S, true, (x) => x.toLocaleString('en-US'));
    return `${size.toLocaleString('en-US')} payouts ${rate.toLocaleString('en-US')} lines/s, ${verdict}`;
  });
  return ['', `The statement's CSV streamed (target ≥ ${STATEMENT_LINES_PER_S.toLocaleString('en-US')} lines/s): ${judged.join('; ')}.`];
}

function readsTable(reads: ReadFigure[], embedded: boolean): string[] {
  const lines = [
    '| read | p50 ms 1x | p99 ms 1x | p50 ms 2x | p99 ms 2x | growth p50 | p50 2x net of the floor | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const floors = new Map(reads.filter((r) => r.kind === 'floor').map((r) => [r.name, r]));
  for (const r of reads) {
    const growth = r.p50[1] !== undefined ? Math.round((r.p50[1] / Math.max(r.p50[0]!, 0.1)) * 100) / 100 : NaN;
    if (r.kind === 'floor') {
      lines.push(
        `| ${r.name} | ${r.p50[0]} | ${r.p99[0]} | ${r.p50[1] ?? ''} | ${r.p99[1] ?? ''} | ${growth}× |  | the floor: no target |`,
      );
      continue;
    }
    const t = embedded ? EMBEDDED_MS : TARGET_MS[r.kind];
    const { grew, net } = growthNetOfFloor(r, floors.get(r.kind === 'console' ? FLOOR.console : FLOOR.api));
    const met = r.p50.every((x) => x <= t.p50) && r.p99.every((x) => x <= t.p99) && !grew;
    const want = embedded
      ? '< 1 s'
      : r.kind === 'console'
        ? `≤${t.p50} ms, growth ≤1.2× or +2 ms`
        : `p50 ≤${t.p50}, p99 ≤${t.p99}, growth ≤1.2× or +2 ms`;
    lines.push(
      `| ${r.name} | ${r.p50[0]} | ${r.p99[0]} | ${r.p50[1] ?? ''} | ${r.p99[1] ?? ''} | ${growth}× | ${net} | ${want}: ${met ? 'met' : 'NOT met'} |`,
    );
  }
  return lines;
}

/**
 * Growth from 1x to 2x, judged as at most 1.2x or +2 ms, whichever is larger (below a few milliseconds a ratio
 * is noise; the query-plan test is the real guard), after taking off what the floor timed in the same rounds
 * gained meanwhile: the machine's drift between the two sizes, minutes apart. A whole file's page is the file, so
 * its growth is judged per line. Results from before the floors are judged as measured.
 */
function growthNetOfFloor(r: ReadFigure, floor: ReadFigure | undefined): { grew: boolean; net: string } {
  const [a, b] = r.p50;
  if (a === undefined || b === undefined) return { grew: false, net: '' };
  const drift = floor?.p50[1] !== undefined ? floor.p50[1] - floor.p50[0]! : 0;
  const after = Math.max(b - drift, 0);
  const [la, lb] = r.lines ?? [];
  if (la && lb) {
    const perLine = after / lb / (a / la);
    return { grew: perLine > 1.2, net: `${Math.round(perLine * 100) / 100}× per line (${la} → ${lb} lines)` };
  }
  return { grew: after > Math.max(a * 1.2, a + 2), net: `${Math.round(after * 10) / 10} ms` };
}

/** What ran beside the reads at each size (timed one at a time, the reads keep about one core busy). */
function besideTheReads(spent: ActivitySpent[] | undefined, sizes: number[]): string[] {
  if (!spent?.length) return [];
  return [
    '',
    ...spent.map((a, i) => {
      const jobs = Object.entries(a.jobSeconds)
        .map(([job, s]) => `${job} ${s} s`)
        .join(', ');
      return `Beside the reads at ${sizes[i]?.toLocaleString('en-US')} payouts (${a.seconds} s): ${a.coresBusy} cores busy on average; background jobs ${jobs || 'none over 0.1 s'}; ${a.webhookAttempts.toLocaleString('en-US')} webhook attempts; ${a.mbWritten} MB written by PostgreSQL's checkpoints and writers.`;
    }),
  ];
}
