// Every read stays on an index at volume (PostgreSQL): each read action runs through the API against a
// merchant with a long history; every statement it sends is recorded and EXPLAINed (ANALYZE, JSON).
// A sequential scan of a history table, or a plan that reads far more rows than its page, fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import type { Db, Queryable } from '@/lib/db/types';
import { createMerchant } from '@/lib/payments/merchants';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../helpers/databases';
import { writeHistory } from '../helpers/volume-data';

const N = Number(process.env.QUERY_PLAN_PAYOUTS ?? 60_000);
const HISTORY = ['payouts', 'ledger_entries', 'events', 'request_log', 'webhook_deliveries', 'balance_daily', 'payout_daily', 'checkout_sessions', 'payout_batches'];
/** Rows one read may touch: a page, a day of figures, a search's matches; far below the history (N). */
const MAX_ROWS_READ = 2_000;

interface Recorded {
  sql: string;
  params: readonly unknown[];
}

/** The database with every statement recorded, transactions included. */
function recording(db: Db, log: Recorded[]): Db {
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => (log.push({ sql, params: params ?? [] }), q.query(sql, params)),
    exec: (sql) => q.exec(sql),
  });
  return { ...db, ...wrap(db), transaction: (fn, opts) => db.transaction((tx) => fn(wrap(tx)), opts), kind: db.kind, close: () => db.close(), poolStats: () => db.poolStats(), session: (fn) => db.session(fn) };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

describe.runIf(postgresUrl)('query plans of every read at volume (postgres)', () => {
  let db: Db;
  let api: TestApi;
  const log: Recorded[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 5 });
    // Another merchant's history too, so that merchant_id is not the whole table.
    const other = await createMerchant(db, { name: 'Other', openingBalance: 0 });
    const [otherKey] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [other.id]);
    await writeHistory(db, { merchantId: other.id, keyId: otherKey!.id, n: N / 4, tag: 'o' });
    api = await startTestApi(recording(db, log), { openingBalance: 1_000_000_000 });
    const endpoint = (await api.call({ action: 'create_webhook_endpoint', url: 'https://example.com/hook' })).body;
    const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [api.merchant.id]);
    await writeHistory(db, { merchantId: api.merchant.id, keyId: key!.id, endpointId: endpoint.id, n: N, tag: 'm' });
    const batch = (await api.call({ action: 'create_payout_batch', payouts: [{ amount: 10_000, bank_code: 'BCA', account_number: '5550001234' }] })).body;
    Object.assign(ids, { endpoint: endpoint.id, key: key!.id, batch: batch.id, deep: `po_m${N / 2}`, deepEvent: `evt_m${N / 2}0`, deepTxn: `txn_${N}` });
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await db?.close();
  });

  const day = (daysAgo: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - daysAgo * 86_400_000).toISOString();
  const reads: [string, () => Record<string, unknown>][] = [
    ['list_payouts', () => ({})],
    ['list_payouts', () => ({ status: 'failed' })],
    ['list_payouts', () => ({ status: 'pending' })],
    ['list_payouts', () => ({ status: 'paid' })],
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
    ['summarize_payouts', () => ({ status: 'paid', created_gte: new Date(Date.parse(day(30)) + 3_600_000).toISOString(), created_lt: day(20) })],
    ['list_balance_transactions', () => ({})],
    ['list_balance_transactions', () => ({ type: 'checkout_payment' })],
    ['list_balance_transactions', () => ({ type: 'payout_reversal' })],
    ['list_balance_transactions', () => ({ type: 'payout' })],
    ['list_balance_transactions', () => ({ created_lt: day(30), limit: 50 })],
    ['list_balance_transactions', () => ({ starting_after: ids.deepTxn, limit: 50 })],
    ['summarize_balance', () => ({ days: 30 })],
    ['list_events', () => ({})],
    ['list_events', () => ({ type: 'payout.failed' })],
    ['list_events', () => ({ object_id: ids.deep })],
    ['list_events', () => ({ starting_after: ids.deepEvent })],
    ['list_requests', () => ({})],
    ['list_requests', () => ({ status: 422 })],
    ['list_requests', () => ({ request_action: 'list_payouts' })],
    ['list_requests', () => ({ key_id: ids.key })],
    ['list_requests', () => ({ idempotency_key: `idem-m${N / 20}` })],
    ['list_webhook_deliveries', () => ({})],
    ['list_webhook_deliveries', () => ({ status: 'failed' })],
    ['list_webhook_deliveries', () => ({ endpoint_id: ids.endpoint })],
    ['list_webhook_deliveries', () => ({ event_id: ids.deepEvent })],
    ['list_payout_batches', () => ({})],
    ['list_checkout_sessions', () => ({})],
  ];

  it.each(reads.map(([action, input], i) => [`${action} ${i}`, action, input] as const))('%s stays on an index', async (_, action, input) => {
    const body = { action, ...input() };
    log.length = 0;
    const res = await api.call(body);
    expect([res.status, JSON.stringify(body)]).toEqual([200, JSON.stringify(body)]);
    const statements = log.filter((s) => /^\s*(WITH|SELECT)\b/i.test(s.sql) && HISTORY.some((t) => new RegExp(`\\b${t}\\b`).test(s.sql)));
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.sql}`, s.params);
      const plan = row!['QUERY PLAN'][0].Plan;
      const problems: string[] = [];
      let read = 0;
      walk(plan, (n) => {
        if (n['Node Type'] === 'Seq Scan' && HISTORY.includes(n['Relation Name']!)) problems.push(`Seq Scan on ${n['Relation Name']}`);
        if (n['Relation Name']) read += ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * (n['Actual Loops'] ?? 1);
      });
      if (read > MAX_ROWS_READ) problems.push(`reads ${read} rows`);
      expect({ body, sql: s.sql.replace(/\s+/g, ' ').slice(0, 300), problems }).toEqual({ body, sql: s.sql.replace(/\s+/g, ' ').slice(0, 300), problems: [] });
    }
  });
});
