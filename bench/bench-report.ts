// The report of `npm run bench`: the tables it prints, and bench/results/latest.json for a full run.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../testing/server-process';
import { busyMerchantReport } from './busy-merchant-report';
import type { BusyMerchantFigures } from './busy-merchant';
import type { ModeFigures } from './server-cases';
import { sandboxReport, type SandboxFigures } from './sandboxes';
import { settlementReport, type SettlementFigures } from './settlement';
import type { VolumeFigures } from './volume';
import { volumeReport } from './volume-report';
import { WARM_UP_S } from './drive';
import type { RunProvenance } from './run-provenance';

export interface BenchRun {
  /** When, on which machine and which commit: written at the head of each results file. */
  provenance: RunProvenance;
  settings: { connections: number; durationSeconds: number; rounds: number };
  modes: ModeFigures[];
  busy?: BusyMerchantFigures;
  /** The per-day figures at 64 connections (their 8-connection pair is in the modes' rounds). */
  figures64: ModeFigures['figures'];
  settlement?: SettlementFigures;
  sandboxes?: SandboxFigures;
  volume: VolumeFigures[];
  sections: { name: string; seconds: number }[];
  /** A narrowed run prints its figures but leaves bench/results/latest.json to full runs. */
  narrowed: boolean;
}

/** `next` is `npm start`'s server: the API ahead of Next's router, at the standalone server's speed. */
const TARGETS: Record<string, number> = {
  'standalone withdraw': 0.9,
  'standalone get_balance': 0.8,
  'next withdraw': 0.9,
  'next get_balance': 0.9,
};

/** bench/results/volume.json: written after each mix too, so that a run cut short keeps the mixes it finished. */
export function writeVolumeResults({ date, commit, machine }: BenchRun['provenance'], volume: BenchRun['volume']) {
  fs.writeFileSync(path.join(ROOT, 'bench/results/volume.json'), JSON.stringify({ date, commit, machine, volume }, null, 2) + '\n');
}

export function report(run: BenchRun) {
  const { busy, settlement, volume, sections } = run;
  const { connections: CONNECTIONS, durationSeconds: DURATION_S, rounds: ROUNDS } = run.settings;
  const cases = run.modes.flatMap((m) => m.cases);
  const memory = run.modes.flatMap((m) => m.memory);
  const proxy = run.modes.flatMap((m) => m.proxy);
  const webhooks = run.modes.flatMap((m) => m.webhooks);
  const requestLog = run.modes.flatMap((m) => m.requestLog);
  const figures = [...run.modes.flatMap((m) => m.figures), ...run.figures64];
  const { date, commit, machine } = run.provenance;
  const lines = [
    `\nBenchmark: ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION_S} s per case (after a ${WARM_UP_S} s warm-up); ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, PostgreSQL ${machine.postgres ?? 'none'}; commit ${commit}`,
    '| database | server | action | req/s | p50 ms | p99 ms | non-2xx | ratio to floor (paired by round) | target |',
    '|---|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const c of cases) {
    const target = TARGETS[`${c.server} ${c.action}`];
    const verdict = target === undefined ? '' : `${Math.round(target * 100)}%: ${c.ratio >= target ? 'met' : 'NOT met'}`;
    lines.push(
      `| ${c.mode} | ${c.server} | ${c.action} | ${Math.round(c.rps)} | ${c.p50} | ${c.p99} | ${c.non2xx + c.errors} | ${Math.round(c.ratio * 100)}% | ${verdict} |`,
    );
  }
  lines.push(
    '',
    'Console proxy (Next, one connection: p50 through /api/balance and /api/payouts vs the API directly; target: adds at most 2 ms)',
  );
  lines.push('| database | action | direct p50 ms | through the console p50 ms | added ms | target |', '|---|---|---:|---:|---:|---|');
  for (const p of proxy)
    lines.push(`| ${p.mode} | ${p.action} | ${p.directP50} | ${p.proxyP50} | ${p.addedMs} | ${p.addedMs <= 2 ? 'met' : 'NOT met'} |`);
  lines.push('', '| database | server | RSS idle MiB | RSS peak under load MiB |', '|---|---|---:|---:|');
  for (const m of memory) lines.push(`| ${m.mode} | ${m.server} | ${m.idleMiB} | ${m.loadMiB} |`);
  if (busy) lines.push('', ...busyMerchantReport(busy));
  if (webhooks.length > 0) {
    lines.push(
      '',
      'Events and webhooks (standalone servers in the rounds above: withdrawals of a merchant with one endpoint subscribed to every event, against one without, paired rounds)',
    );
    lines.push(
      '| database | withdraw/s without endpoints | withdraw/s with one endpoint | ratio (paired by round) | deliveries/s during the load | deliveries/s after it (backlog) | target |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const w of webhooks) {
      lines.push(
        `| ${w.mode} | ${w.withoutEndpoint} | ${w.withEndpoint} | ${Math.round(w.ratio * 100)}% | ${w.deliveredDuringLoadPerSecond} | ${w.drainPerSecond} | 90%: ${w.ratio >= 0.9 ? 'met' : 'NOT met'} |`,
      );
    }
  }
  if (requestLog.length > 0) {
    lines.push(
      '',
      'The request log (standalone servers on databases prepared alike, in the rounds above: REQUEST_LOG_RETENTION_DAYS=30, the default, against 0, no log; paired by round)',
    );
    lines.push(
      '| database | action | req/s without the log | req/s with it | ratio (paired by round) | target |',
      '|---|---|---:|---:|---:|---|',
    );
    for (const r of requestLog)
      lines.push(
        `| ${r.mode} | ${r.action} | ${r.withoutLog} | ${r.withLog} | ${Math.round(r.ratio * 100)}% | 90%: ${r.ratio >= 0.9 ? 'met' : 'NOT met'} |`,
      );
  }
  if (figures.length > 0) {
    lines.push(
      '',
      'Per-day figures (standalone servers, PostgreSQL: withdrawals of one merchant, with the figures triggers against without them, paired rounds)',
    );
    lines.push('| connections | withdraw/s without | withdraw/s with | ratio (paired by round) | target |', '|---:|---:|---:|---:|---|');
    for (const f of figures)
      lines.push(
        `| ${f.connections} | ${f.withoutFigures} | ${f.withFigures} | ${Math.round(f.ratio * 100)}% | 95%: ${f.ratio >= 0.95 ? 'met' : 'NOT met'} |`,
      );
  }
  if (settlement) lines.push('', ...settlementReport(settlement));
  if (run.sandboxes) lines.push('', ...sandboxReport(run.sandboxes));
  for (const v of volume) lines.push('', ...volumeReport(v));
  lines.push('', "Where the run's time went (wall seconds; target for the whole `npm run bench`: ≤ 600)", '| section | s |', '|---|---:|');
  for (const x of sections) lines.push(`| ${x.name} | ${x.seconds} |`);
  process.stdout.write(lines.join('\n') + '\n');
  if (volume.length > 0) writeVolumeResults(run.provenance, volume);
  if (run.narrowed) return void process.stdout.write('\nA narrowed run: bench/results/latest.json left as it was.\n');
  const out = path.join(ROOT, 'bench/results/latest.json');
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        date,
        commit,
        machine,
        connections: CONNECTIONS,
        durationSeconds: DURATION_S,
        rounds: ROUNDS,
        cases,
        consoleProxy: proxy,
        memory,
        busyMerchant: busy,
        webhooks,
        requestLog,
        figures,
        settlement,
        sandboxes: run.sandboxes,
        sections,
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`\nWritten to ${path.relative(process.cwd(), out)}\n`);
}
