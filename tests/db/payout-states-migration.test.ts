// Migrations 050-052, 082-083 and 089-091 on a big history, on PostgreSQL, while withdrawals go on: payout_states is
// backfilled exactly (one row per payout, the paid ones by 083, each with its last four by 090) in short steps, the payout indexes that held `status`
// are dropped CONCURRENTLY, and afterwards no payout index holds a column that settlement changes, so a
// settlement is a HOT update. Writers of payouts wait only for CREATE TRIGGER (a catalog change) and, one
// step at a time, for the row locks of a step's payouts: sampled every 20 ms, a writer waiting on the table
// is seen at most in a sample or two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@/lib/db/migrate';
import { migrations } from '@/lib/db/migrations';
import { openPostgresDb } from '@/lib/db/postgres-db';
import type { Db } from '@/lib/db/types';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { analyzeSchema, writeHistory } from '../../testing/volume-data';
import { withWithdrawalsMeanwhile } from '../helpers/withdrawals-meanwhile';

const N = Number(process.env.MIGRATION_LOAD_PAYOUTS ?? 200_000);
/** Columns a settlement (or its back-off) writes: no payout index may hold one, in its key or its predicate. */
const SETTLEMENT_COLUMNS = ['status', 'settled_at', 'failure_code', 'failure_message', 'settle_after', 'settle_attempts'];

describe.runIf(postgresUrl)('the payout_states migration under load (postgres)', () => {
  let db: Db;
  let api: TestApi;
  beforeAll(async () => {
    db = openPostgresDb(await createSchemaUrl(), 20, { statementTimeoutMs: 600_000 });
    // A database with a long history and every migration but these eight.
    await migrate(
      db,
      migrations.filter((m) => m.version < 50 || (m.version > 52 && m.version < 82) || (m.version > 83 && m.version < 89)),
    );
    api = await startTestApi(db, { openingBalance: 1_000_000_000_000, settings: { settlementDelaySeconds: 0 } });
    const [key] = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE merchant_id = $1', [api.merchant.id]);
    await writeHistory(db, { merchantId: api.merchant.id, keyId: key!.id, n: N, tag: 'h' });
    await analyzeSchema(db);
  }, 600_000);
  afterAll(async () => {
    await api?.close();
    await db?.close();
  });

  it('converts the tables while withdrawals are answered, and payout_states is exact', async () => {
    const load = await withWithdrawalsMeanwhile(api, db, ['payouts'], () => migrate(db), 300);
    const { result: applied, ms: migrationMs, during, statuses, blockedSamples, samples, slowest } = load;
    process.stdout.write(
      `[payout_states migration under load] ${N} payouts: migrated in ${Math.round(migrationMs)} ms; ${during.length} withdrawals answered meanwhile, slowest ${Math.round(slowest)} ms; writers waiting on payouts in ${blockedSamples} of ${samples} samples (20 ms apart)\n`,
    );
    expect(applied).toEqual([50, 51, 52, 82, 83, 89, 90, 91]);
    expect([...statuses.keys()]).toEqual([200]);
    // Writers wait for the backfill alone (a few hundred ms here), never for the index drops: a bound well
    // under the migration's length at this size, and every client answered many times meanwhile.
    expect({ answered: during.length > 20, notHeld: slowest < Math.max(2_000, migrationMs / 2) }).toEqual({
      answered: true,
      notHeld: true,
    });

    // Exact: one row per payout, with its state, due time and last four; withdrawals made during the migration included.
    const [diff] = await db.query<{ missing: number; extra: number; rows: number; expected: number }>(
      `SELECT
         (SELECT count(*)::int FROM (SELECT seq, merchant_id, status, payout_state_due(status, settle_after, approval_expires_at), right(account_number, 4)
            FROM payouts EXCEPT ALL SELECT seq, merchant_id, state, due_at, account_last4 FROM payout_states) d) AS missing,
         (SELECT count(*)::int FROM (SELECT seq, merchant_id, state, due_at, account_last4 FROM payout_states EXCEPT ALL
            SELECT seq, merchant_id, status, payout_state_due(status, settle_after, approval_expires_at), right(account_number, 4) FROM payouts) d) AS extra,
         (SELECT count(*)::int FROM payout_states) AS rows,
         (SELECT count(*)::int FROM payouts) AS expected`,
    );
    expect(diff).toMatchObject({ missing: 0, extra: 0 });
    expect(diff!.rows).toBe(diff!.expected);
    expect(diff!.rows).toBeGreaterThanOrEqual(N);

    // No payout index holds a column settlement writes.
    const defs = await db.query<{ name: string; def: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'payouts'::regclass`,
    );
    const holding = defs.filter((d) => SETTLEMENT_COLUMNS.some((c) => new RegExp(`\\b${c}\\b`).test(d.def.split(' USING ')[1]!)));
    expect(holding).toEqual([]);

    // A queue table: vacuumed once 10,000 rows are dead, at full speed (a settled backlog's dead rows are stepped over by a list of pending payouts).
    const [options] = await db.query<{ reloptions: string[] }>(`SELECT reloptions FROM pg_class WHERE oid = 'payout_states'::regclass`);
    expect(options!.reloptions.sort()).toEqual([
      'autovacuum_vacuum_cost_delay=0',
      'autovacuum_vacuum_scale_factor=0',
      'autovacuum_vacuum_threshold=10000',
    ]);
  });

  it('settles every due payout afterwards, old pages and new, and payout_states follows', async () => {
    const statsUpdates = async () => {
      const [r] = await db.query<{ upd: string; hot: string }>(
        `SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relid = 'payouts'::regclass`,
      );
      return { upd: Number(r!.upd), hot: Number(r!.hot) };
    };
    // The history was written straight into the tables: its pending payouts get their reservation, as withdrawals make it.
    await db.query(`UPDATE balances b SET pending_payouts = (SELECT COALESCE(sum(amount), 0) FROM payouts p
      WHERE p.merchant_id = b.merchant_id AND p.status = 'pending')`);
    await new Promise((r) => setTimeout(r, 11_000)); // an idle backend reports its statistics within 10 s
    const before = await statsUpdates();
    let settled = 0;
    for (;;) {
      const r = await settleDuePayouts(db, { batchSize: 1000, maxBatches: 100 });
      settled += r.paid + r.failed;
      if (r.paid + r.failed === 0) break;
    }
    await new Promise((r) => setTimeout(r, 11_000));
    const after = await statsUpdates();
    process.stdout.write(
      `[payout_states migration] settled ${settled} (the history's pending payouts, on pages filled before the migration, among them): ${after.hot - before.hot} of ${after.upd - before.upd} updates HOT\n`,
    );
    expect(settled).toBeGreaterThan(N / 50);
    const [left] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payout_states WHERE state = 'pending' AND due_at <= now()`,
    );
    expect(left!.n).toBe(0);
    const [pending] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payouts WHERE status = 'pending' AND settle_after <= now()`,
    );
    expect(pending!.n).toBe(0);
  });
});
