import type { BusyMerchantFigures, LoadFigures } from './busy-merchant';

const pct = (x: number) => `${Math.round(x * 100)}%`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const cpu = (f: LoadFigures) => `${f.serverCpuMs} + ${f.databaseCpuMs} = ${Math.round((f.serverCpuMs + f.databaseCpuMs) * 1000) / 1000}`;
const total = (f: LoadFigures) => f.serverCpuMs + f.databaseCpuMs;

/** The busy-merchant section of the bench report, with each of its targets judged. */
export function busyMerchantReport(busy: BusyMerchantFigures): string[] {
  const lines = [
    'A busy merchant on PostgreSQL (npm start, WITHDRAW_GROUP_COMMIT on and off side by side; hot-row limit: pgbench, the same clients, -j 2, one conditional update of one balance row per transaction; CPU per withdrawal: server process + its PostgreSQL backends, ms)',
    '| case | clients | grouped /s | not grouped /s | grouped ÷ not | grouped ÷ hot-row limit | p50 / p99 ms grouped | p50 / p99 ms not | CPU ms grouped | CPU ms not | mean group | targets |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const c of ['8', '64']) {
    const o = busy.oneMerchant[c]!;
    // The 8-client ratio to the limit is reported without a target: a small group's CPU against a client that does
    // no work per commit says little about a merchant's needs.
    const targets = c === '64' ? [`100% of the limit: ${verdict(o.ofLimit >= 1)}`] : ['no target, reported'];
    if (c === '64') {
      targets.push(
        `3× not grouped: ${verdict(o.onOverOff >= 3)}`,
        `p99 no worse: ${verdict(o.on.p99 <= o.off.p99)}`,
        `CPU halved: ${verdict(total(o.on) <= total(o.off) / 2)}`,
      );
    }
    lines.push(`| hot-row limit | ${c} | ${busy.hotRowLimit[c]} |  |  | 100% |  |  |  |  |  |  |`);
    lines.push(
      `| one merchant | ${c} | ${o.on.rps} | ${o.off.rps} | ${o.onOverOff}× | ${pct(o.ofLimit)} | ${o.on.p50} / ${o.on.p99} | ${o.off.p50} / ${o.off.p99} | ${cpu(o.on)} | ${cpu(o.off)} | ${o.on.groupSize} | ${targets.join('; ')} |`,
    );
  }
  const m = busy.manyMerchants;
  lines.push(
    `| 64 merchants | 64 | ${m.on.rps} | ${m.off.rps} | ${m.onOverOff}× |  | ${m.on.p50} / ${m.on.p99} | ${m.off.p50} / ${m.off.p99} | ${cpu(m.on)} | ${cpu(m.off)} | ${m.on.groupSize} | 2.5× not grouped: ${verdict(m.onOverOff >= 2.5)} |`,
  );
  const one = busy.oneClient;
  lines.push(
    `| one client, p50 (µs timing) | 1 |  |  |  |  | ${one.onP50} ms | ${one.offP50} ms |  |  |  | within 1 ms: ${verdict(one.onP50 - one.offP50 <= 1)} |`,
  );
  lines.push(
    `| 10,000 payouts in batches of 1,000 | 1 | ${busy.batch.ms} ms in all |  |  |  |  |  |  |  | 5,000 ms: ${verdict(busy.batch.ms <= 5000)}; invariant ${busy.batch.invariantExact ? 'exact' : 'BROKEN'} |`,
  );
  return lines;
}
