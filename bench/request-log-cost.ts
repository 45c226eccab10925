// What the request log costs the API: in the rounds of `npm run bench` (bench/run-bench.ts), the standalone server
// keeping the log (REQUEST_LOG_RETENTION_DAYS=30, the default) beside one keeping none (0), on databases prepared alike,
// under the same load in the same interleaved rounds. The ratio is taken within each round (paired), then its median;
// the log's rows are counted at the end, so a log that silently wrote nothing cannot pass.
import type autocannon from 'autocannon';
import { openDb } from '../lib/db/open-db';
import type { Action } from './drive';

export interface RequestLogCostFigures {
  mode: string;
  action: Action;
  withoutLog: number;
  withLog: number;
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** From the rounds of `standalone` (logged) and `unlogged`, keyed `<variant> <action>`. */
export function requestLogFigures(
  mode: string,
  actions: readonly Action[],
  rounds: Map<string, autocannon.Result[]>,
): RequestLogCostFigures[] {
  return actions.map((action) => {
    const [logged, unlogged] = [rounds.get(`standalone ${action}`)!, rounds.get(`unlogged ${action}`)!];
    for (const r of [...logged, ...unlogged])
      if (r.non2xx + r.errors > 0) throw new Error(`${action} answered ${r.non2xx} non-2xx and ${r.errors} errors`);
    return {
      mode,
      action,
      withoutLog: Math.round(median(unlogged.map((r) => r.requests.average))),
      withLog: Math.round(median(logged.map((r) => r.requests.average))),
      ratio: Math.round(median(logged.map((l, i) => l.requests.average / unlogged[i]!.requests.average)) * 100) / 100,
    };
  });
}

type Where = { databaseUrl?: string; dataDir?: string };

/** Throws unless the logged server's database holds a row per measured request and the other none (servers stopped). */
export async function requestLogRows(mode: string, logged: Where, unlogged: Where, measured: number) {
  const count = async (at: Where) => {
    const db = await openDb({ ...at, poolSize: 1 });
    try {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_log'))[0]!.n;
    } finally {
      await db.close();
    }
  };
  const [rows, none] = [await count(logged), await count(unlogged)];
  if (rows < measured || none !== 0)
    throw new Error(`request log rows: ${rows} for ${measured} measured requests, ${none} on the server without a log`);
  process.stdout.write(`  ${mode.padEnd(8)} request log: ${rows} rows written for ${measured} measured requests\n`);
}
