// What the request log costs the API: two standalone servers side by side on databases prepared alike, one
// keeping the log (REQUEST_LOG_RETENTION_DAYS=30, the default) and one keeping none (0), under the same
// load in interleaved rounds, in a new order each round. The ratio is taken within each round (paired),
// then its median; the log's rows are counted at the end, so a log that silently wrote nothing cannot pass.
import fs from 'node:fs';
import { openDb } from '../lib/db/open-db';
import { ServerProcess } from '../tests/helpers/server-process';
import { apiDrive, drive, type Action } from './drive';

export interface RequestLogCostFigures {
  mode: string;
  action: Action;
  withoutLog: number;
  withLog: number;
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function requestLogCost(
  mode: 'postgres' | 'embedded',
  prepare: () => Promise<{ databaseUrl?: string; dataDir?: string }>,
  distDir: string,
  opts: { actions: readonly Action[]; connections: number; seconds: number; rounds: number },
): Promise<RequestLogCostFigures[]> {
  const where = { logged: await prepare(), unlogged: await prepare() };
  const start = (days: number, at: { databaseUrl?: string; dataDir?: string }) =>
    new ServerProcess({
      kind: 'standalone',
      ...at,
      distDir,
      env: { LOG_LEVEL: 'warn', SETTLEMENT_DELAY_SECONDS: '3600', REQUEST_LOG_RETENTION_DAYS: String(days) },
    }).start();
  const servers = { logged: await start(30, where.logged), unlogged: await start(0, where.unlogged) };
  const figures: RequestLogCostFigures[] = [];
  let requests = 0;
  try {
    for (const action of opts.actions) {
      const rate = { logged: [] as number[], unlogged: [] as number[] };
      for (let round = 0; round < opts.rounds; round++) {
        for (const which of Math.random() < 0.5 ? (['logged', 'unlogged'] as const) : (['unlogged', 'logged'] as const)) {
          if (round === 0) await drive(servers[which].url, apiDrive(action), opts.connections, 2); // warm-up
          const r = await drive(servers[which].url, apiDrive(action), opts.connections, opts.seconds);
          if (r.non2xx + r.errors > 0) throw new Error(`${action} answered ${r.non2xx} non-2xx and ${r.errors} errors`);
          rate[which].push(r.requests.average);
          if (which === 'logged') requests += r.requests.total;
        }
        process.stdout.write(
          `  ${mode.padEnd(8)} request log round ${round + 1} ${action.padEnd(11)} ${Math.round(rate.unlogged.at(-1)!)}/s without the log, ${Math.round(rate.logged.at(-1)!)}/s with it\n`,
        );
      }
      figures.push({
        mode,
        action,
        withoutLog: Math.round(median(rate.unlogged)),
        withLog: Math.round(median(rate.logged)),
        ratio: Math.round(median(rate.logged.map((l, i) => l / rate.unlogged[i]!)) * 100) / 100,
      });
    }
  } finally {
    await Promise.all([servers.logged.stop(), servers.unlogged.stop()]);
  }
  // The servers flushed on stop: the logged one holds a row per measured request (warm-ups too), the other none.
  const count = async (at: { databaseUrl?: string; dataDir?: string }) => {
    const db = await openDb({ ...at, poolSize: 1 });
    try {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_log'))[0]!.n;
    } finally {
      await db.close();
      if (at.dataDir) fs.rmSync(at.dataDir, { recursive: true, force: true });
    }
  };
  const [logged, unlogged] = [await count(where.logged), await count(where.unlogged)];
  if (logged < requests || unlogged !== 0)
    throw new Error(`request log rows: ${logged} for ${requests} measured requests, ${unlogged} on the server without a log`);
  process.stdout.write(`  ${mode.padEnd(8)} request log: ${logged} rows written for ${requests} measured requests\n`);
  return figures;
}
