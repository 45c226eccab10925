// The servers of one database mode side by side, each on its own database prepared alike, under the same load in
// interleaved rounds (a new order each round, so that a burst of load from elsewhere on a shared machine hits all alike).
// Figures are medians over rounds; a ratio is taken within each round first (a paired comparison), then its median.
// Besides the floor, the standalone server and `npm start`, the rounds hold the variants that each measure one cost
// against `standalone`: the request log (`unlogged`), an endpoint subscribed to every event (`hooked`), the per-day
// figures' triggers (`unfigured`). Sharing the rounds spares each cost a section of its own servers and warm-ups.
import fs from 'node:fs';
import type autocannon from 'autocannon';
import { ServerProcess, type ServerKind } from '../testing/server-process';
import { apiDrive, consoleDrive, drive, sequentialP50, signIn, WARM_UP_S, type Action } from './drive';
import { dropFigureTriggers, figuresFromRounds, type FiguresCostFigures } from './figures-cost';
import { requestLogFigures, requestLogRows, type RequestLogCostFigures } from './request-log-cost';
import { median } from './paired';
import { prepareDatabase, type Mode, type Where } from './prepare-database';
import { HookedMerchant, type WebhookCostFigures } from './webhook-cost';

export type Variant = ServerKind | 'unlogged' | 'hooked' | 'unfigured';
export type { Mode } from './prepare-database';

export interface Case {
  mode: string;
  server: ServerKind;
  action: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Median over rounds of this round's req/s over the floor's in the same round. */
  ratio: number;
}
export type MemoryRow = { mode: string; server: ServerKind; idleMiB: number; loadMiB: number };
export type ConsoleRow = { mode: string; action: Action; directP50: number; proxyP50: number; addedMs: number };

export interface CaseOptions {
  /** The servers of the mode's rounds: always the floor; the variants only beside `standalone`. */
  variants: Variant[];
  actions: readonly Action[];
  rounds: number;
  seconds: number;
  connections: number;
  /** The console proxy's overhead, measured on the `next` server after the rounds. */
  console: boolean;
}

export interface ModeFigures {
  cases: Case[];
  memory: MemoryRow[];
  proxy: ConsoleRow[];
  requestLog: RequestLogCostFigures[];
  webhooks: WebhookCostFigures[];
  figures: FiguresCostFigures[];
}

/**
 * How each variant's server differs from the standalone server: its kind, its environment, what it is measured on.
 * No server settles during the rounds (settlement an hour away): one server's settlement would run in the next
 * server's round, and the floor settles nothing; settlement has a case of its own (bench/settlement.ts).
 */
function variantServer(variant: Variant): { kind: ServerKind; env: Record<string, string>; withdrawOnly: boolean } {
  const env = { LOG_LEVEL: 'warn', SETTLEMENT_DELAY_SECONDS: '3600', REQUEST_LOG_RETENTION_DAYS: variant === 'unlogged' ? '0' : '30' };
  const kind = variant === 'floor' || variant === 'next' ? variant : 'standalone';
  return { kind, env, withdrawOnly: variant === 'hooked' || variant === 'unfigured' };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const shuffled = <T>(xs: T[]) =>
  xs
    .map((x) => [Math.random(), x] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);

export async function serverCases(
  mode: Mode,
  distDir: string,
  o: CaseOptions,
  timed: <T>(name: string, run: () => Promise<T>) => Promise<T>,
) {
  const out: ModeFigures = { cases: [], memory: [], proxy: [], requestLog: [], webhooks: [], figures: [] };
  const hook = o.variants.includes('hooked') ? new HookedMerchant() : undefined;
  // Started side by side: each on a fresh database of its own.
  const servers = new Map(
    await Promise.all(
      o.variants.map(async (variant) => {
        const where = await prepareDatabase(mode);
        if (variant === 'unfigured') await dropFigureTriggers(where.databaseUrl!);
        const { kind, env } = variantServer(variant);
        const server = await new ServerProcess({ kind, ...where, distDir, env }).start();
        if (variant === 'hooked') await hook!.subscribe(server.url);
        const entry: [Variant, { server: ServerProcess; where: Where; idle: number; peak: number }] = [
          variant,
          { server, where, idle: 0, peak: 0 },
        ];
        return entry;
      }),
    ),
  );
  try {
    await new Promise((r) => setTimeout(r, 1500));
    for (const s of servers.values()) s.idle = s.peak = s.server.rssMiB();

    const rounds = new Map<string, autocannon.Result[]>();
    for (let round = 0; round < o.rounds; round++) {
      for (const action of o.actions) {
        for (const variant of shuffled(o.variants.filter((v) => action === 'withdraw' || !variantServer(v).withdrawOnly))) {
          const s = servers.get(variant)!;
          const load = (seconds: number) => () => drive(s.server.url, apiDrive(action), o.connections, seconds);
          const measure = (seconds: number, measured: boolean) =>
            hook && variant === 'hooked' ? hook.round(s.server.url, seconds, load(seconds), measured) : load(seconds)();
          const sampler = setInterval(() => (s.peak = Math.max(s.peak, s.server.rssMiB())), 250);
          if (round === 0) await measure(WARM_UP_S, false);
          const r = await measure(o.seconds, true);
          clearInterval(sampler);
          rounds.set(`${variant} ${action}`, [...(rounds.get(`${variant} ${action}`) ?? []), r]);
          process.stdout.write(
            `  ${mode.padEnd(8)} round ${round + 1} ${variant.padEnd(10)} ${action.padEnd(11)} ${Math.round(r.requests.average)} req/s\n`,
          );
        }
      }
    }
    if (o.console)
      out.proxy.push(...(await timed(`console proxy, ${mode}`, () => consoleOverhead(mode, servers.get('next')!.server.url, o))));
    for (const variant of o.variants) {
      if (variant !== 'floor' && variant !== 'standalone' && variant !== 'next') continue;
      for (const action of o.actions) out.cases.push(caseOf(mode, variant, action, rounds));
      const s = servers.get(variant)!;
      out.memory.push({ mode, server: variant, idleMiB: Math.round(s.idle), loadMiB: Math.round(s.peak) });
    }
    if (hook) out.webhooks.push(hook.figures(mode, rounds));
    if (o.variants.includes('unfigured')) out.figures.push(figuresFromRounds(o.connections, rounds));
    for (const s of servers.values()) await s.server.stop();
    if (o.variants.includes('unlogged')) {
      out.requestLog.push(...requestLogFigures(mode, o.actions, rounds));
      // The servers flushed on stop: the logged one holds a row per measured request (warm-ups too), the other none.
      const measured = o.actions.flatMap((a) => rounds.get(`standalone ${a}`)!).reduce((n, r) => n + r.requests.total, 0);
      await requestLogRows(mode, servers.get('standalone')!.where, servers.get('unlogged')!.where, measured);
    }
    return out;
  } finally {
    hook?.close();
    for (const s of servers.values()) {
      await s.server.stop();
      if (s.where.dataDir) fs.rmSync(s.where.dataDir, { recursive: true, force: true });
    }
  }
}

function caseOf(mode: string, kind: ServerKind, action: Action, rounds: Map<string, autocannon.Result[]>): Case {
  const rs = rounds.get(`${kind} ${action}`)!;
  const floor = rounds.get(`floor ${action}`)!;
  return {
    mode,
    server: kind,
    action,
    // Paired: each round's req/s over the floor's in the same round (seconds apart), then the median.
    ratio: median(rs.map((r, i) => r.requests.average / floor[i]!.requests.average)),
    rps: median(rs.map((r) => r.requests.average)),
    p50: median(rs.map((r) => r.latency.p50)),
    p99: median(rs.map((r) => r.latency.p99)),
    non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
    errors: rs.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * What the console proxy adds: the same action through the console's route (session cookie -> route -> the API) and
 * directly, one request at a time so that p50 is service time, not queueing, timed to the microsecond. Interleaved,
 * median of rounds.
 */
async function consoleOverhead(mode: string, url: string, o: CaseOptions): Promise<ConsoleRow[]> {
  const cookie = await signIn(url);
  const rows: ConsoleRow[] = [];
  for (const action of o.actions) {
    const p50 = { direct: [] as number[], proxy: [] as number[] };
    // Three rounds of 1 s after a warm-up: one request at a time is steadier than a loaded run (hundreds of
    // requests per p50), and the whole bench must stay under 10 minutes.
    for (let round = 0; round < Math.min(o.rounds, 3); round++) {
      for (const via of shuffled(['direct', 'proxy'] as const)) {
        const d = via === 'direct' ? apiDrive(action) : consoleDrive(action, cookie);
        if (round === 0) await sequentialP50(url, d, WARM_UP_S);
        p50[via].push(await sequentialP50(url, d, 1));
      }
    }
    const direct = round2(median(p50.direct));
    const proxy = round2(median(p50.proxy));
    rows.push({ mode, action, directP50: direct, proxyP50: proxy, addedMs: round2(proxy - direct) });
    process.stdout.write(
      `  ${mode.padEnd(8)} console proxy ${action.padEnd(11)} p50 ${direct} ms direct, ${proxy} ms through the console\n`,
    );
  }
  return rows;
}
