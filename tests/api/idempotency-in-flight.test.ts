import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDb } from '@/lib/db/open-db';
import { fingerprint } from '@/lib/payments/pipeline/idempotency-key';
import { startTestApi, withdrawal } from '../helpers/api-server';
import { createSchemaUrl, postgresUrl } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

/**
 * An original request still in flight is simulated by a second connection that
 * claims the key in an open transaction, exactly as the handler does. Only a
 * server with several connections can have a duplicate in flight, so these run
 * on PostgreSQL (PGlite runs one transaction at a time).
 */
describe.runIf(postgresUrl)('a duplicate of an in-flight request (postgres)', () => {
  async function setup(waitSeconds: number) {
    const url = await createSchemaUrl();
    const api = await startTestApi(await openDb({ databaseUrl: url }), { settings: { idempotencyWaitSeconds: waitSeconds } });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    const body = withdrawal(40_000);
    await holder.query(`INSERT INTO idempotency_keys (merchant_id, key, action, fingerprint) VALUES ($1, 'in-flight', 'withdraw', $2)`, [
      api.merchant.id,
      fingerprint(body),
    ]);
    return { api, holder, body };
  }

  it('waits for the original and replays its result', async () => {
    const { api, holder, body } = await setup(5);
    try {
      // A whole payout, as the original would have stored it (every answer must match the OpenAPI document).
      const stored = JSON.stringify({
        object: 'payout',
        id: 'po_fromtheoriginal000000000',
        amount: 40_000,
        currency: 'IDR',
        bank_code: 'BCA',
        account_last4: '7890',
        status: 'pending',
        failure_code: null,
        failure_message: null,
        created_at: '2026-11-23T08:00:00.000Z',
        settled_at: null,
        bank_reference: null,
        paid_at: null,
        returned_at: null,
        batch_id: null,
        reference: null,
        created_by: null,
        account_holder_name: 'Budi Santoso',
        approval_expires_at: null,
        approved_by: null,
        approved_at: null,
        rejected_by: null,
        rejected_at: null,
        rejection_reason: null,
        livemode: false,
      });
      const duplicate = api.call(body, { idempotencyKey: 'in-flight' });
      await new Promise((r) => setTimeout(r, 300));
      await holder.query(`UPDATE idempotency_keys SET response_status = 200, response_body = $1 WHERE key = 'in-flight'`, [stored]);
      await holder.query('COMMIT');
      const res = await duplicate;
      expect(res.status).toBe(200);
      expect(res.text).toBe(stored);
      expect(res.headers.get('x-service-idempotent-replayed')).toBe('true');
      expect((await ledgerCheck(api.db, api.merchant.id)).payouts).toBe(0);
    } finally {
      await holder.end();
      await api.close();
      await api.db.close();
    }
  });

  it('answers 409 with Retry-After past the wait bound, and executes once the original is gone', async () => {
    const { api, holder, body } = await setup(0.3);
    try {
      const res = await api.call(body, { idempotencyKey: 'in-flight' });
      expect(res.status).toBe(409);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_request_in_progress' });
      // The original crashes before commit: its claim disappears and the retry runs.
      await holder.query('ROLLBACK');
      const retry = await api.call(body, { idempotencyKey: 'in-flight' });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('x-service-idempotent-replayed')).toBeNull();
      expect((await ledgerCheck(api.db, api.merchant.id)).payouts).toBe(1);
    } finally {
      await holder.end();
      await api.close();
      await api.db.close();
    }
  });

  it('does not apply the wait bound to business writes queued on a busy balance row', async () => {
    const url = await createSchemaUrl();
    const api = await startTestApi(await openDb({ databaseUrl: url }), { settings: { idempotencyWaitSeconds: 0.2 } });
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM balances WHERE merchant_id = $1 FOR UPDATE', [api.merchant.id]);
      const pending = api.call(withdrawal(10_000), { idempotencyKey: 'queued-1' });
      await new Promise((r) => setTimeout(r, 600));
      await locker.query('COMMIT');
      expect((await pending).status).toBe(200);
    } finally {
      await locker.end();
      await api.close();
      await api.db.close();
    }
  });
});
