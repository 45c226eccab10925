import type { Queryable } from '../../db/types';
import { ApiError } from '../../contract';
import { listObject } from './api-object';

/** A condition on rows, `sql` with one `?` for `value`; an undefined value is no condition. */
export interface SqlCondition {
  sql: string;
  value: unknown;
}

/** The conditions as ` AND …` with their values appended to `params` (placeholders numbered after them). */
export function conditionsSql(conditions: SqlCondition[], params: unknown[]): string {
  let sql = '';
  for (const c of conditions) {
    if (c.value === undefined) continue;
    params.push(c.value);
    sql += ` AND ${c.sql.replace('?', `$${params.length}`)}`;
  }
  return sql;
}

/**
 * One page of a merchant's rows, newest first, after the cursor `startingAfter`.
 * Ordered by the table's identity column `seq`, which ties never share.
 */
export async function listPage<Row>(
  db: Queryable,
  opts: {
    table:
      | 'payouts'
      | 'checkout_sessions'
      | 'payout_batches'
      | 'events'
      | 'webhook_endpoints'
      | 'webhook_deliveries'
      | 'request_log'
      | 'refunds';
    columns: string;
    /**
     * The FROM clause, when not the table alone: a join that keeps `seq` and `merchant_id` unqualified; it may
     * use $1 (the merchant) and $2 (the cursor's seq, or null), and `bind` for values of its own.
     */
    from?: (bind: (value: unknown) => string) => string;
    merchantId: string;
    limit?: number;
    /**
     * `seq + 0`: the same order, which no index can give, so the planner reads the filter's own index and sorts its
     * rows instead of walking the newest rows for them (a batch's index is unordered, migration 070).
     */
    orderBy?: 'seq' | 'seq + 0';
    startingAfter?: string;
    /** Columns that must equal a value (undefined values are no condition). */
    where?: Record<string, unknown>;
    /** Further conditions: SQL with `?` standing for its value (undefined values are no condition). */
    conditions?: SqlCondition[];
    /**
     * A column whose own (column, seq) index the page walks newest first when its value is given, the merchant
     * checked on the way (the column's rows are all the merchant's): planned so with or without statistics.
     */
    walk?: { column: string; value: unknown };
    /**
     * A column whose own index gives a handful of rows (an event's deliveries) when its value is given: that index
     * alone, the merchant and `where` checked on the way and the rows sorted (`seq + 0`). Without statistics an
     * index condition beside it was ANDed in (the merchant's whole history read), and an order by `seq` walked
     * every row newest first for the few.
     */
    few?: { column: string; value: unknown };
  },
) {
  const limit = opts.limit ?? 10;
  let cursor: number | null = null;
  if (opts.startingAfter) {
    const [row] = await db.query<{ seq: number }>(`SELECT seq FROM ${opts.table} WHERE id = $1 AND merchant_id = $2`, [
      opts.startingAfter,
      opts.merchantId,
    ]);
    if (!row) throw new ApiError('not_found', `No such object: ${opts.startingAfter}`, 'starting_after');
    cursor = row.seq;
  }
  const params: unknown[] = [opts.merchantId, cursor, limit + 1];
  const from = opts.from ? opts.from((value) => `$${params.push(value)}`) : opts.table;
  let conditions = '';
  const few = opts.few?.value !== undefined && !opts.from ? opts.few : undefined;
  const walk = few ?? (opts.walk?.value !== undefined && !opts.from ? opts.walk : undefined);
  for (const [column, value] of Object.entries(opts.where ?? {})) {
    if (value === undefined || column === walk?.column) continue;
    params.push(value);
    const condition = `${column} = $${params.length}`;
    conditions += ` AND ${few ? checkedOnTheWay(condition) : condition}`;
  }
  conditions += conditionsSql(opts.conditions ?? [], params);
  // Walking another index, the merchant condition is a check on the way (checkedOnTheWay): as an index
  // condition beside the walk's, the planner without statistics would gather both and sort.
  const merchant = walk ? `${walk.column} = $${params.push(walk.value)} AND ${checkedOnTheWay('merchant_id = $1')}` : 'merchant_id = $1';
  const sql = `SELECT ${opts.columns} FROM ${from}
     WHERE ${merchant} AND ($2::bigint IS NULL OR seq < $2::bigint)${conditions}
     ORDER BY ${few ? 'seq + 0' : (opts.orderBy ?? 'seq')} DESC LIMIT $3`;
  const rows = await db.query<Row>(sql, params);
  return listObject(rows.slice(0, limit), rows.length > limit);
}

/**
 * A filter checked row by row on an index walk, never planned as an index condition: COALESCE makes it an
 * expression the planner estimates at half the rows, statistics or not. A plain `column = value` without
 * statistics is guessed at 0.5% of the rows, and the planner would rather gather every row of the merchant
 * through a bitmap and sort them than walk its index newest first, which is what a page of a common value needs.
 */
export const checkedOnTheWay = (condition: string) => `COALESCE(${condition}, false)`;
