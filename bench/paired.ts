// Medians over rounds, and the paired comparison every cost in the bench uses: two servers measured seconds apart in
// each round, the ratio taken within the round, then its median (a burst of load from elsewhere hits both alike).
import type autocannon from 'autocannon';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface Pair {
  /** Median req/s of the side that carries the cost, and of the side without it. */
  withCost: number;
  without: number;
  /** Median over rounds of withCost / without, to two decimals. */
  ratio: number;
}

/** The pair from per-round rates, index i of each the same round. */
export function pairOfRates(withCost: number[], without: number[]): Pair {
  return {
    withCost: Math.round(median(withCost)),
    without: Math.round(median(without)),
    ratio: Math.round(median(withCost.map((w, i) => w / without[i]!)) * 100) / 100,
  };
}

/** The pair from autocannon's rounds (keyed `<variant> <action>`); throws if either side answered a non-2xx or failed. */
export function pairOfRounds(rounds: Map<string, autocannon.Result[]>, withCost: string, without: string): Pair {
  const [a, b] = [rounds.get(withCost)!, rounds.get(without)!];
  for (const r of [...a, ...b])
    if (r.non2xx + r.errors > 0) throw new Error(`${withCost} / ${without}: ${r.non2xx} non-2xx and ${r.errors} errors`);
  return pairOfRates(
    a.map((r) => r.requests.average),
    b.map((r) => r.requests.average),
  );
}
