// A lone keyed withdrawal is one statement that is its own transaction (payouts/withdraw-one-statement.ts):
// the claim of its key, the payout and the stored answer commit together, the answer's timestamps are the
// payout's to the millisecond, and what the statement could not decide goes the ordinary way.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import { AUTH_ONE_SQL } from '@/lib/payments/pipeline/authenticate';
import { CLAIM_SQL } from '@/lib/payments/pipeline/idempotency';
import { isoSql } from '@/lib/payments/payouts/withdraw-statement';
import { backends, createSchemaUrl, postgresUrl } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';
import { recording, type Recorded } from '../../testing/read-plans';
import { startTestApi, useTestApi, withdrawal } from '../helpers/api-server';

const REPLAYED = 'x-service-idempotent-replayed';

describe.each(backends)('a lone keyed withdrawal ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 1_000_000 });

  it('writes a timestamp into the answer as the driver reads it back: milliseconds, truncated', async () => {
    const fractions = ['000000', '000999', '001000', '057000', '123456', '289999', '999999', '500500'];
    for (const f of fractions) {
      const at = `2026-11-28 01:02:03.${f}+00`;
      const [row] = await api().db.query<{ text: string; read: Date }>(
        `SELECT ${isoSql('$1::timestamptz')} AS text, $1::timestamptz AS read`,
        [at],
      );
      expect(row!.text).toBe(new Date(row!.read).toISOString());
    }
  });

  it('answers with the stored text, its timestamps the payout row’s to the millisecond, and replays it byte for byte', async () => {
    const first = await api().call(withdrawal(10_000), { idempotencyKey: 'one-1' });
    expect(first.status).toBe(200);
    const [stored] = await api().db.query<{ response_status: number; response_body: string; answer_ref: string; same_tx: boolean }>(
      `SELECT k.response_status, k.response_body, k.answer_ref, k.xmin::text = p.xmin::text AS same_tx
       FROM idempotency_keys k JOIN payouts p ON p.id = k.answer_ref WHERE k.merchant_id = $1 AND k.key = 'one-1'`,
      [api().merchant.id],
    );
    expect(stored).toEqual({ response_status: 200, response_body: first.text, answer_ref: first.body.id, same_tx: true });
    const again = await api().call(withdrawal(10_000), { idempotencyKey: 'one-1' });
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.text).toBe(first.text);
    const read = await api().call({ action: 'get_payout', id: first.body.id });
    expect(read.body.created_at).toBe(first.body.created_at);
    expect(first.body).toEqual({ ...read.body, status: 'pending' });
  });

  it('writes the expiry of a payout that waits for approval as the row has it', async () => {
    await api().call({ action: 'update_payout_approval_policy', required: true, above_amount: 500_000, for_keys: 'all' });
    try {
      const waits = await api().call(withdrawal(600_000), { idempotencyKey: 'one-approval' });
      expect(waits.body).toMatchObject({ status: 'awaiting_approval' });
      const read = await api().call({ action: 'get_payout', id: waits.body.id });
      expect(waits.body.approval_expires_at).toBe(read.body.approval_expires_at);
      expect(waits.body.approval_expires_at).not.toBeNull();
    } finally {
      await api().call({ action: 'update_payout_approval_policy', required: false });
    }
  });

  it('stores the refusal of a withdrawal the balance does not cover, through the ordinary path, and writes nothing', async () => {
    const before = await ledgerCheck(api().db, api().merchant.id);
    const refused = await api().call(withdrawal(50_000_000), { idempotencyKey: 'one-refused' });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_funds', param: 'amount' });
    const again = await api().call(withdrawal(50_000_000), { idempotencyKey: 'one-refused' });
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.text).toBe(refused.text);
    expect(await ledgerCheck(api().db, api().merchant.id)).toEqual(before);
  });
});

describe.runIf(postgresUrl)('a lone keyed withdrawal (postgres)', () => {
  it('is one statement; a replay takes the ordinary path after it', async () => {
    const real = await openDb({ databaseUrl: await createSchemaUrl() });
    const log: Recorded[] = [];
    const api = await startTestApi(recording(real, log), { openingBalance: 100_000 });
    try {
      const statements = async (fn: () => Promise<unknown>) => {
        log.length = 0;
        await fn();
        // Off the request's path by design, and timed by themselves: a key's use and the request log.
        return log.map((s) => s.sql).filter((sql) => !/^(UPDATE api_keys SET last_used_at|INSERT INTO request_log)/.test(sql.trim()));
      };
      const claiming = (sql: string) => sql.startsWith('WITH bound AS');
      const paid = await statements(() => api.call(withdrawal(10_000), { idempotencyKey: 'count-1' }));
      expect(paid).toHaveLength(2);
      expect(paid[0]).toBe(AUTH_ONE_SQL);
      expect(claiming(paid[1]!)).toBe(true);
      // A replay: the statement finds the key in use, then the ordinary path's claim and the replay's read.
      const replayed = await statements(() => api.call(withdrawal(10_000), { idempotencyKey: 'count-1' }));
      expect(replayed).toHaveLength(4);
      expect(replayed.slice(0, 3).map((sql, i) => (i === 1 ? claiming(sql) : sql))).toEqual([AUTH_ONE_SQL, true, CLAIM_SQL]);
    } finally {
      await api.close();
      await real.close();
    }
  });

  it('rolls its claim back when the balance it waited for no longer covers the amount, and the refusal is stored', async () => {
    const url = await createSchemaUrl();
    const api = await startTestApi(await openDb({ databaseUrl: url }), { openingBalance: 100_000 });
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      // Another writer holds the balance row while the withdrawal's statement waits for it, and spends it.
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM balances WHERE merchant_id = $1 FOR UPDATE', [api.merchant.id]);
      const pending = api.call(withdrawal(60_000), { idempotencyKey: 'moved-1' });
      for (let waiting = false; !waiting;) {
        const [row] = await api.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH bound AS%'`,
        );
        waiting = row!.n > 0;
      }
      await locker.query(`UPDATE balances SET available = available - 50000 WHERE merchant_id = $1`, [api.merchant.id]);
      await locker.query('COMMIT');
      const res = await pending;
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'insufficient_funds' });
      const again = await api.call(withdrawal(60_000), { idempotencyKey: 'moved-1' });
      expect(again.text).toBe(res.text);
      const [payouts] = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payouts WHERE merchant_id = $1', [
        api.merchant.id,
      ]);
      expect(payouts!.n).toBe(0);
    } finally {
      await locker.end();
      await api.close();
      await api.db.close();
    }
  });
});
