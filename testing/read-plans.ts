import type { Db, Queryable } from '@/lib/db/types';

/** Tables whose size grows with a merchant's history: a read must never scan one whole. */
export const HISTORY_TABLES = [
  'payouts',
  'ledger_entries',
  'events',
  'request_log',
  'webhook_deliveries',
  'balance_daily',
  'payout_daily',
  'ledger_figures',
  'checkout_sessions',
  'payout_batches',
  'payout_batch_counts',
  'payout_states',
];

export interface Recorded {
  sql: string;
  params: readonly unknown[];
  /** The planner settings its transaction had set before it (SET LOCAL), replayed by `explain`. */
  settings?: readonly string[];
}

/** The database with every statement recorded, those of transactions included. */
export function recording(db: Db, log: Recorded[]): Db {
  const wrap = (q: Queryable, settings: string[] = []): Queryable => ({
    query: (sql, params) => (log.push({ sql, params: params ?? [], settings: [...settings] }), q.query(sql, params)),
    exec: (sql) => {
      if (/^SET LOCAL /i.test(sql)) settings.push(sql);
      return q.exec(sql);
    },
  });
  return {
    kind: db.kind,
    ...wrap(db),
    transaction: (fn, opts) => db.transaction((tx) => fn(wrap(tx, [])), opts),
    session: (fn) => db.session(fn),
    close: () => db.close(),
    poolStats: () => db.poolStats(),
  };
}

/** The recorded statements that read history tables (a read action's own queries, not authentication's). */
export const historyReads = (log: Recorded[]) =>
  log.filter(
    (s) =>
      /^\s*(WITH|SELECT)\b/i.test(s.sql) &&
      !/\b(INSERT|UPDATE|DELETE)\b/i.test(s.sql) &&
      HISTORY_TABLES.some((t) => new RegExp(`\\b${t}\\b`).test(s.sql)),
  );

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

export interface PlanSummary {
  /** Each scan of a table: `Index Scan payouts_merchant_status`, `Seq Scan payouts`. */
  scans: string[];
  /** Rows the scans touched, kept or filtered out. */
  rowsRead: number;
  /** The same, per table. */
  rowsByTable: Record<string, number>;
  ms: number;
}

/** Rows every bitmap index scan under `n` gave (per loop of theirs, times their loops). */
function bitmapIndexRows(n: PlanNode): number {
  const own = n['Node Type'] === 'Bitmap Index Scan' ? (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1) : 0;
  return own + (n.Plans ?? []).reduce((sum, child) => sum + bitmapIndexRows(child), 0);
}

/** EXPLAIN (ANALYZE) of one recorded statement, summarised. */
export async function explain(db: Queryable | Db, s: Recorded): Promise<PlanSummary> {
  if (s.settings?.length && 'transaction' in db) {
    return db.transaction(async (tx) => {
      for (const setting of s.settings!) await tx.exec(setting);
      return explain(tx, { ...s, settings: [] });
    });
  }
  const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${s.sql}`,
    s.params,
  );
  const { Plan, 'Execution Time': ms } = row!['QUERY PLAN'][0];
  const summary: PlanSummary = { scans: [], rowsRead: 0, rowsByTable: {}, ms };
  const walk = (n: PlanNode) => {
    const table = n['Relation Name'];
    if (table) {
      summary.scans.push(`${n['Node Type']} ${n['Index Name'] ?? table}`);
      // A bitmap heap scan reads at least what its indexes gave: under a BitmapAnd it returns only the
      // intersection, while each index gave every row of its condition (a merchant's whole history ANDed with
      // an event's one delivery went unseen here until the volume bench timed it).
      const rows = Math.max(
        ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) *
          (n['Actual Loops'] ?? 1),
        n['Node Type'] === 'Bitmap Heap Scan' ? bitmapIndexRows(n) : 0,
      );
      summary.rowsRead += rows;
      summary.rowsByTable[table] = (summary.rowsByTable[table] ?? 0) + rows;
    } else if (n['Index Name']) {
      // A bitmap index scan: the index it reads (its rows are counted at the heap scan above it).
      summary.scans.push(`${n['Node Type']} ${n['Index Name']}`);
    }
    for (const child of n.Plans ?? []) walk(child);
  };
  walk(Plan);
  return summary;
}

/**
 * History tables above `minRows` rows, counted (not the planner's estimate, which a table without statistics
 * lacks): a sequential scan of a smaller one is cheaper than any index.
 */
export async function bigTables(db: Queryable, minRows = 5_000): Promise<Set<string>> {
  const big = new Set<string>();
  for (const table of HISTORY_TABLES) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} LIMIT $1) t`, [minRows + 1]);
    if (row!.n > minRows) big.add(table);
  }
  return big;
}

/** What is wrong with a plan: a sequential scan of a big history table, or more rows read than `maxRows`. */
export function planProblems(p: PlanSummary, maxRows: number, big: Set<string>): string[] {
  const problems = p.scans.filter((s) => s.startsWith('Seq Scan') && big.has(s.slice('Seq Scan '.length)));
  if (p.rowsRead > maxRows) problems.push(`reads ${p.rowsRead} rows`);
  return problems;
}

/**
 * Every read action with each filter alone and combined, against a history written by
 * writeHistory (testing/volume-data.ts) with `n` payouts under the tag 'm'.
 */
export function readCatalog(ids: Record<string, string>, n: number): [string, () => Record<string, unknown>][] {
  const day = (daysAgo: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - daysAgo * 86_400_000).toISOString();
  return [
    ['list_payouts', () => ({})],
    ['list_payouts', () => ({ status: 'failed' })],
    ['list_payouts', () => ({ status: 'pending' })],
    ['list_payouts', () => ({ status: 'paid' })],
    ['list_payouts', () => ({ status: 'returned' })],
    ['summarize_payouts', () => ({ status: 'returned' })],
    ['list_payouts', () => ({ account_last4: '1234' })],
    ['list_payouts', () => ({ account_last4: '1234', status: 'failed' })],
    ['list_payouts', () => ({ created_gte: day(400), created_lt: day(399) })],
    ['list_payouts', () => ({ created_gte: day(30), created_lt: day(29) })],
    ['list_payouts', () => ({ status: 'failed', created_gte: day(30), created_lt: day(29) })],
    ['list_payouts', () => ({ starting_after: ids.deep, limit: 20 })],
    ['list_payouts', () => ({ batch_id: ids.batch })],
    ['get_payout', () => ({ id: ids.deep })],
    ['summarize_payouts', () => ({})],
    ['summarize_payouts', () => ({ status: 'failed' })],
    ['summarize_payouts', () => ({ account_last4: '1234' })],
    ['summarize_payouts', () => ({ created_gte: day(30), created_lt: day(20) })],
    [
      'summarize_payouts',
      () => ({ status: 'paid', created_gte: new Date(Date.parse(day(30)) + 3_600_000).toISOString(), created_lt: day(20) }),
    ],
    ['list_balance_transactions', () => ({})],
    ['list_balance_transactions', () => ({ type: 'checkout_payment' })],
    ['list_balance_transactions', () => ({ type: 'payout_reversal' })],
    ['list_balance_transactions', () => ({ type: 'payout' })],
    ['list_balance_transactions', () => ({ type: 'payout_return' })],
    ['list_balance_transactions', () => ({ type: 'payout_reversal', source: ids.deep })],
    ['list_balance_transactions', () => ({ type: 'payout', source: ids.deep })],
    ['list_balance_transactions', () => ({ created_lt: day(30), limit: 50 })],
    ['list_balance_transactions', () => ({ starting_after: ids.deepTxn, limit: 50 })],
    ['summarize_balance', () => ({ days: 30 })],
    ['summarize_balance', () => ({ days: 7 })],
    ['get_balance', () => ({ as_of: new Date(Date.parse(day(40)) + 1_234_567).toISOString() })],
    ['get_balance', () => ({ as_of: new Date(Date.parse(day(400))).toISOString() })],
    ['get_statement', () => ({ month: new Date(Date.parse(day(35))).toISOString().slice(0, 7) })],
    [
      'get_statement',
      () => ({
        from: new Date(Date.parse(day(50)) + 1_234_567).toISOString(),
        to: new Date(Date.parse(day(20)) - 7_654_321).toISOString(),
      }),
    ],
    [
      'list_balance_transactions',
      () => ({
        created_gte: new Date(Date.parse(day(31)) - 7 * 3_600_000).toISOString(),
        created_lt: new Date(Date.parse(day(30)) - 7 * 3_600_000).toISOString(),
        limit: 100,
      }),
    ],
    ['list_events', () => ({})],
    ['list_events', () => ({ type: 'payout.failed' })],
    ['list_events', () => ({ type: 'balance.low' })],
    ['list_events', () => ({ object_id: ids.deep })],
    ['list_events', () => ({ starting_after: ids.deepEvent })],
    ['list_requests', () => ({})],
    ['list_requests', () => ({ status: 422 })],
    ['list_requests', () => ({ request_action: 'list_payouts' })],
    ['list_requests', () => ({ key_id: ids.key })],
    ['list_requests', () => ({ idempotency_key: `idem-m${n / 20}` })],
    ['list_requests', () => ({ origin: 'api' })],
    ['list_requests', () => ({ origin: 'console' })],
    ['list_requests', () => ({ object_id: ids.deep })],
    ['list_requests', () => ({ object_id: ids.deep, origin: 'api' })],
    ['list_requests', () => ({ status: 422, origin: 'api' })],
    ['list_webhook_deliveries', () => ({})],
    ['list_webhook_deliveries', () => ({ status: 'failed' })],
    ['list_webhook_deliveries', () => ({ endpoint_id: ids.endpoint })],
    ['list_webhook_deliveries', () => ({ event_id: ids.deepEvent })],
    ['list_payout_batches', () => ({})],
    ['list_payout_batches', () => ({ starting_after: `pb_m${n / 2}` })],
    ['get_payout_batch', () => ({ id: ids.batch })],
    ['list_checkout_sessions', () => ({})],
  ];
}
