// EXPLAIN (ANALYZE) of a writing statement without keeping what it wrote, and the parts of its plan's time: shared
// by the bench's explain scripts (explain-withdraw.ts, explain-withdraw-group.ts, explain-settlement.ts).
import type { Db, Queryable } from '../lib/db/types';
import { median } from './paired';

type Statement = { sql: string; params: unknown[] };

/** The plan of `EXPLAIN (<options>)` of the statement `make` gives in the transaction (where it may write first), rolled back. */
export async function explainRolledBack(db: Db, options: string, make: (tx: Queryable) => Statement | Promise<Statement>): Promise<string> {
  return (await db
    .transaction(async (tx) => {
      const { sql, params } = await make(tx);
      const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (${options}) ${sql}`, params);
      throw Object.assign(new Error('rollback'), { plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
    })
    .catch((e: { plan?: string }) => {
      if (e.plan === undefined) throw e;
      return e.plan;
    })) as string;
}

/** Adds a plan's parts to `parts`: its execution, its planning and each trigger's time, in ms. */
export function addPlanParts(parts: Map<string, number[]>, plan: string): void {
  for (const line of plan.split('\n')) {
    const trigger = /^Trigger (.+?)(?: on \S+)?: time=([0-9.]+)/.exec(line);
    const total = /^Execution Time: ([0-9.]+)/.exec(line);
    const planning = /^Planning Time: ([0-9.]+)/.exec(line);
    const [name, ms] = trigger
      ? [`trigger ${trigger[1]}`, trigger[2]]
      : total
        ? ['execution', total[1]]
        : planning
          ? ['planning', planning[1]]
          : [];
    if (name) parts.set(name, [...(parts.get(name) ?? []), Number(ms)]);
  }
}

/** Each part's median over the runs, the largest first. */
export const partMedians = (parts: Map<string, number[]>) =>
  [...parts]
    .map(([name, ms]) => [name, median(ms)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${ms.toFixed(3).padStart(8)}  ${name}\n`)
    .join('');
