// What the request log costs the API: in the rounds of `npm run bench` (bench/run-bench.ts), the standalone server
// keeping the log (REQUEST_LOG_RETENTION_DAYS=30, the default) beside one keeping none (0), on databases prepared alike,
// under the same load in the same interleaved rounds. The ratio is taken within each round (paired), then its median;
// the log's rows are counted at the end, so a log that silently wrote nothing cannot pass.
import type autocannon from 'autocannon';
import { openDb } from '../lib/db/open-db';
import type { Action } from './drive';
import { pairOfRounds } from './paired';
import type { Where } from './prepare-database';

export interface RequestLogCostFigures {
  mode: string;
  action: Action;
  withoutLog: number;
  withLog: number;
  ratio: number;
}

/** From the rounds of `standalone` (logged) and `unlogged`, keyed `<variant> <action>`. */
export function requestLogFigures(
  mode: string,
  actions: readonly Action[],
  rounds: Map<string, autocannon.Result[]>,
): RequestLogCostFigures[] {
  return actions.map((action) => {
    const pair = pairOfRounds(rounds, `standalone ${action}`, `unlogged ${action}`);
    return { mode, action, withoutLog: pair.without, withLog: pair.withCost, ratio: pair.ratio };
  });
}

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
