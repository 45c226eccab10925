// Every read stays on an index at volume (PostgreSQL): each read action runs through the API against a
// merchant with a long history; every statement it sends is recorded and EXPLAINed (ANALYZE, JSON).
// A sequential scan of a history table, or a plan that reads far more rows than its page, fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import type { Db } from '@/lib/db/types';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { analyzeSchema, writeHistory, writeOthersFigures } from '../../testing/volume-data';
import {
  bigTables,
  explain,
  HISTORY_TABLES,
  historyReads,
  planProblems,
  readCatalog,
  recording,
  type Recorded,
} from '../../testing/read-plans';

const N = Number(process.env.QUERY_PLAN_PAYOUTS ?? 60_000);
/** Rows one read may touch: a page, a day of figures, a search's matches; far below the history (N). */
const MAX_ROWS_READ = 2_000;

describe.runIf(postgresUrl)('query plans of every read at volume (postgres)', () => {
  let db: Db;
  let api: TestApi;
  const log: Recorded[] = [];
  const ids: Record<string, string> = {};
  let big = new Set<string>();

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
    // A full batch, the newest: on the first page of list_payout_batches with 19 batches of 10 from the history.
    const batch = (
      await api.call({
        action: 'create_payout_batch',
        payouts: Array.from({ length: 1000 }, (_, i) => ({ amount: 10_000, bank_code: 'BCA', account_number: String(5_550_000_000 + i) })),
      })
    ).body;
    await writeOthersFigures(db, 300, 60);
    big = await bigTables(db);
    Object.assign(ids, {
      endpoint: endpoint.id,
      key: key!.id,
      batch: batch.id,
      deep: `po_m${N / 2}`,
      deepEvent: `evt_m${N / 2}0`,
      deepTxn: `txn_${N}`,
    });
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await db?.close();
  });

  const reads = readCatalog(ids, N);

  it('has a history big enough for the planner to prefer an index on every table a read touches', () => {
    expect([...big].sort()).toEqual([...HISTORY_TABLES].sort());
  });

  it.each(reads.map(([action, input], i) => [`${action} ${i}`, action, input] as const))(
    '%s stays on an index',
    async (_, action, input) => {
      const body = { action, ...input() };
      log.length = 0;
      const res = await api.call(body);
      expect([res.status, JSON.stringify(body)]).toEqual([200, JSON.stringify(body)]);
      const statements = historyReads(log);
      expect(statements.length).toBeGreaterThan(0);
      for (const s of statements) {
        const plan = await explain(db, s);
        const sql = s.sql.replace(/\s+/g, ' ').slice(0, 300);
        expect({ body, sql, problems: planProblems(plan, MAX_ROWS_READ, big), scans: plan.scans }).toEqual({
          body,
          sql,
          problems: [],
          scans: plan.scans,
        });
      }
    },
  );

  // A batch's counts are kept (migration 013): a list of batches reads none of their payouts, a batch only its own ids.
  it.each([
    ['list_payout_batches', () => ({}), 0],
    ['get_payout_batch', () => ({ id: ids.batch }), 1000],
  ] as const)('%s reads no payouts beyond its page', async (action, input, maxPayouts) => {
    log.length = 0;
    expect((await api.call({ action, ...input() })).status).toBe(200);
    const payoutRows = await Promise.all(historyReads(log).map(async (s) => (await explain(db, s)).rowsByTable.payouts ?? 0));
    expect(payoutRows.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(maxPayouts);
  });

  // The indexes of migrations 070-074 (smaller keys: docs/prove.md, "Bytes per settled payout") serve the reads of those they
  // replaced. (Not asserted: an unfiltered list of this merchant, 80% of the rows, walks the table's identity index, as cheap.)
  it.each([
    ['list_payouts', 'payouts_merchant_last4', () => ({ account_last4: '1234' })],
    ['summarize_payouts', 'payouts_merchant_last4', () => ({ account_last4: '1234' })],
    ['list_payouts', 'payouts_in_batch', () => ({ batch_id: ids.batch })],
    ['list_events', 'events_merchant_seq', () => ({})],
    ['list_events', 'events_once_per_transition', () => ({ object_id: ids.deep })],
    ['list_requests', 'request_log_merchant_origin', () => ({ origin: 'api' })],
    ['list_requests', 'request_log_merchant_object', () => ({ object_id: ids.deep })],
    ['list_balance_transactions', 'ledger_entries_once_per_source', () => ({ type: 'payout', source: ids.deep })],
    ['get_balance', 'ledger_entries_merchant_time', () => ({ as_of: new Date(Date.now() - 40 * 86_400_000 + 1_234_567).toISOString() })],
  ] as const)('%s reads %s', async (action, index, input) => {
    log.length = 0;
    expect((await api.call({ action, ...input() })).status).toBe(200);
    const scans = (await Promise.all(historyReads(log).map(async (s) => (await explain(db, s)).scans))).flat();
    expect(scans).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(` ${index}$`))]));
  });

  // Last, since it drops an index: the check does catch a read that falls back to walking the history.
  it('fails a read whose index is gone', async () => {
    await db.exec('DROP INDEX payouts_merchant_last4; ANALYZE payouts');
    log.length = 0;
    expect((await api.call({ action: 'list_payouts', account_last4: '1234' })).status).toBe(200);
    const problems = (await Promise.all(historyReads(log).map(async (s) => planProblems(await explain(db, s), MAX_ROWS_READ, big)))).flat();
    expect(problems.length).toBeGreaterThan(0);
  });
});

// The same reads in the three mixes of statuses a merchant's history goes through (every payout pending while
// settlement is a day away; every one settled; half and half with a tenth failed), first right after the bulk
// load, with no statistics (a server whose autovacuum is off has none until someone runs ANALYZE), then with them.
// Large enough that every history table is big and a walk beats a sort at the planner's own guesses (at a few
// thousand rows a guess of 0.5% of them is a handful, and a plan that reads all is no worse than a walk).
const MIX_N = Number(process.env.QUERY_PLAN_MIX_PAYOUTS ?? 200_000);
/** A page, a day of the history's rows (N / 60), a search's matches; far below the history. */
const MIX_MAX_ROWS = MIX_N / 40;
/**
 * Two ledger reads that still lean on statistics in these mixes (docs/prove.md, "Plans without statistics"): a day's
 * page by dates (the id range gathered and sorted without statistics) and the rare kind payout_reversal (its entries
 * all behind the pending half: walked past, and once so even with statistics in the half mix). They are kept out of
 * the mixes here, not fixed; the history above checks them with statistics.
 */
const leansOnStatistics = (action: string, input: Record<string, unknown>) =>
  action === 'list_balance_transactions' &&
  !('source' in input) &&
  (input.type === 'payout_reversal' || (input.created_gte !== undefined && input.created_lt !== undefined));
describe.runIf(postgresUrl).each(['pending', 'settled', 'half'] as const)(
  'query plans in the %s mix, without and with statistics (postgres)',
  (mix) => {
    let db: Db;
    let api: TestApi;
    const log: Recorded[] = [];
    const ids: Record<string, string> = {};
    let big = new Set<string>();

    beforeAll(async () => {
      db = await openDb({ databaseUrl: await createSchemaUrl(), poolSize: 5 });
      const other = await createMerchant(db, { name: 'Other', openingBalance: 0 });
      const [otherKey] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [other.id]);
      await writeHistory(db, { merchantId: other.id, keyId: otherKey!.id, n: MIX_N / 4, tag: 'o', mix, analyze: false });
      api = await startTestApi(recording(db, log), { openingBalance: 1_000_000_000 });
      const endpoint = (await api.call({ action: 'create_webhook_endpoint', url: 'https://example.com/hook' })).body;
      const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [api.merchant.id]);
      await writeHistory(db, {
        merchantId: api.merchant.id,
        keyId: key!.id,
        endpointId: endpoint.id,
        n: MIX_N,
        tag: 'm',
        mix,
        analyze: false,
      });
      const batch = (
        await api.call({
          action: 'create_payout_batch',
          payouts: Array.from({ length: 1000 }, (_, i) => ({
            amount: 10_000,
            bank_code: 'BCA',
            account_number: String(5_550_000_000 + i),
          })),
        })
      ).body;
      await writeOthersFigures(db, 300, 60, false);
      big = await bigTables(db);
      Object.assign(ids, {
        endpoint: endpoint.id,
        key: key!.id,
        batch: batch.id,
        deep: `po_m${MIX_N / 2}`,
        deepEvent: `evt_m${MIX_N / 2}0`,
        deepTxn: `txn_${MIX_N}`,
      });
    }, 300_000);
    afterAll(async () => {
      await api?.close();
      await db?.close();
    });

    const reads = readCatalog(ids, MIX_N).filter(([action, input]) => !leansOnStatistics(action, input()));
    const check = async (action: string, input: () => Record<string, unknown>) => {
      const body = { action, ...input() };
      log.length = 0;
      const res = await api.call(body);
      expect([res.status, JSON.stringify(body)]).toEqual([200, JSON.stringify(body)]);
      const statements = historyReads(log);
      expect(statements.length).toBeGreaterThan(0);
      for (const s of statements) {
        const plan = await explain(db, s);
        const sql = s.sql.replace(/\s+/g, ' ').slice(0, 300);
        expect({ body, sql, problems: planProblems(plan, MIX_MAX_ROWS, big) }).toEqual({ body, sql, problems: [] });
      }
    };

    it('has no statistics after the bulk load (where no autovacuum daemon ran)', async () => {
      const [daemon] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
      const [stats] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename IN ('payouts', 'events', 'ledger_entries', 'payout_states')`,
      );
      if (!daemon!.on) expect(stats!.n).toBe(0);
      expect([...big].sort()).toEqual([...HISTORY_TABLES].sort());
    });

    it.each(reads.map(([action, input], i) => [`${action} ${i}`, action, input] as const))(
      '%s stays on an index without statistics',
      async (_, action, input) => check(action, input),
    );

    it('has statistics once analyzed', async () => {
      await analyzeSchema(db);
      const [stats] = await db.query<{ n: number }>(
        `SELECT count(DISTINCT tablename)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename IN ('payouts', 'events', 'ledger_entries', 'payout_states')`,
      );
      expect(stats!.n).toBe(4);
    });

    it.each(reads.map(([action, input], i) => [`${action} ${i}`, action, input] as const))(
      '%s stays on an index with statistics',
      async (_, action, input) => check(action, input),
    );
  },
);
