// What the per-day figures, ledger figures and batch counts (migrations 010, 041 and 013's statement triggers) cost the
// write path, on PostgreSQL: standalone servers side by side on schemas prepared alike, one as migrated and one with the
// figures' triggers dropped, under the same withdrawals of one busy merchant (so that they commit in groups) in
// interleaved rounds, in a new order each round; the ratio is taken within each round (paired), then its median.
// At 8 connections the pair runs in the rounds of bench/server-cases.ts (`standalone` and `unfigured`); at 64 in a
// section of its own (figuresCost).
import type autocannon from 'autocannon';
import { openDb } from '../lib/db/open-db';
import { ServerProcess } from '../testing/server-process';
import { apiDrive, drive, WARM_UP_S } from './drive';
import { pairOfRates, pairOfRounds, type Pair } from './paired';
import { prepareDatabase } from './prepare-database';

export interface FiguresCostFigures {
  connections: number;
  withoutFigures: number;
  withFigures: number;
  ratio: number;
}

const TRIGGERS = [
  'ledger_daily_figures ON ledger_entries',
  'ledger_span_figures ON ledger_entries',
  'payout_daily_insert ON payouts',
  'payout_daily_update ON payouts',
  'payout_daily_delete ON payouts',
  'payout_batch_counts_insert ON payouts',
  'payout_batch_counts_update ON payouts',
  'payout_batch_counts_delete ON payouts',
];

/** Drops the figures' triggers of a prepared schema. */
export async function dropFigureTriggers(databaseUrl: string) {
  const db = await openDb({ databaseUrl, poolSize: 1 });
  try {
    for (const t of TRIGGERS) await db.exec(`DROP TRIGGER ${t}`);
  } finally {
    await db.close();
  }
}

async function prepare(withFigures: boolean): Promise<string> {
  const { databaseUrl } = await prepareDatabase('postgres');
  if (!withFigures) await dropFigureTriggers(databaseUrl!);
  return databaseUrl!;
}

const figuresOf = (connections: number, pair: Pair): FiguresCostFigures => ({
  connections,
  withoutFigures: pair.without,
  withFigures: pair.withCost,
  ratio: pair.ratio,
});

/** The pair at `connections` from rounds keyed `<variant> withdraw`: `standalone` (as migrated) and `unfigured`. */
export const figuresFromRounds = (connections: number, rounds: Map<string, autocannon.Result[]>) =>
  figuresOf(connections, pairOfRounds(rounds, 'standalone withdraw', 'unfigured withdraw'));

export async function figuresCost(
  distDir: string,
  opts: { connections: number[]; seconds: number; rounds: number },
): Promise<FiguresCostFigures[]> {
  const start = async (withFigures: boolean) =>
    new ServerProcess({
      kind: 'standalone',
      databaseUrl: await prepare(withFigures),
      distDir,
      env: { LOG_LEVEL: 'warn', SETTLEMENT_DELAY_SECONDS: '3600' },
    }).start();
  const [withF, without] = await Promise.all([start(true), start(false)]);
  const servers = { with: withF, without };
  const figures: FiguresCostFigures[] = [];
  try {
    for (const connections of opts.connections) {
      const rate = { with: [] as number[], without: [] as number[] };
      for (let round = 0; round < opts.rounds; round++) {
        for (const which of Math.random() < 0.5 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
          if (round === 0) await drive(servers[which].url, apiDrive('withdraw'), connections, WARM_UP_S);
          const r = await drive(servers[which].url, apiDrive('withdraw'), connections, opts.seconds);
          if (r.non2xx + r.errors > 0) throw new Error(`withdraw answered ${r.non2xx} non-2xx and ${r.errors} errors`);
          rate[which].push(r.requests.average);
        }
        process.stdout.write(
          `  figures round ${round + 1}, ${connections} connections: ${Math.round(rate.without.at(-1)!)}/s without, ${Math.round(rate.with.at(-1)!)}/s with\n`,
        );
      }
      figures.push(figuresOf(connections, pairOfRates(rate.with, rate.without)));
    }
  } finally {
    await Promise.all([servers.with.stop(), servers.without.stop()]);
  }
  return figures;
}
