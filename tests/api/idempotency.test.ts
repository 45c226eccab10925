import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { purgeExpiredIdempotencyKeys } from '@/lib/payments/pipeline/idempotency';
import { callApi, useTestApi, withTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';
import { ledgerCheck } from '../../testing/ledger';

const REPLAYED = 'x-service-idempotent-replayed';

describe.each(apiTargets)('idempotency ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 5_000_000 });

  it('replays the original status and body byte for byte, marked replayed, with no new transaction', async () => {
    const first = await api().call(withdrawal(100_000), { idempotencyKey: 'same-1' });
    const again = await api().call(withdrawal(100_000), { idempotencyKey: 'same-1' });
    expect(first.headers.get(REPLAYED)).toBeNull();
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get(REPLAYED)).toBe('true');
    const check = await ledgerCheck(api().db, api().merchant.id);
    expect(check).toMatchObject({ available: 4_900_000, ledger: 4_900_000, payouts: 1 });
    expect(check.pending).toBe(check.pendingSum);
  });

  it('compares requests canonically: key order and whitespace do not matter', async () => {
    const first = await api().call(undefined, {
      idempotencyKey: 'canon-1',
      raw: '{"action":"withdraw","amount":20000,"bank_code":"BNI","account_number":"55554444"}',
    });
    const reordered = await api().call(undefined, {
      idempotencyKey: 'canon-1',
      raw: '{ "account_number" : "55554444",\n "bank_code":"BNI", "amount": 20000, "action": "withdraw" }',
    });
    expect(reordered.status).toBe(200);
    expect(reordered.text).toBe(first.text);
    expect(reordered.headers.get(REPLAYED)).toBe('true');
  });

  it.each([
    ['another amount', withdrawal(100_001)],
    ['another account', withdrawal(100_000, { account_number: '99998888' })],
    ['another action', { action: 'create_checkout_session', amount: 100_000 }],
  ])('refuses the same key with %s: 422 idempotency_key_reused, nothing executed', async (_, body) => {
    const key = `reuse-${Math.random()}`;
    await api().call(withdrawal(100_000), { idempotencyKey: key });
    const before = await ledgerCheck(api().db, api().merchant.id);
    const res = await api().call(body, { idempotencyKey: key });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    expect(await ledgerCheck(api().db, api().merchant.id)).toEqual(before);
    const sessions = await api().db.query('SELECT 1 FROM checkout_sessions WHERE merchant_id = $1', [api().merchant.id]);
    expect(sessions).toEqual([]);
  });

  it('scopes keys per merchant: two merchants may use the same string', async () => {
    const other = await createMerchant(api().db, { name: 'Other', openingBalance: 1_000_000 });
    const mine = await api().call(withdrawal(30_000), { idempotencyKey: 'shared-key' });
    const theirs = await callApi(api().url, other.secretKey, withdrawal(30_000), { idempotencyKey: 'shared-key' });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get(REPLAYED)).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('stores business refusals: an insufficient_funds answer is replayed even after funds arrive', async () => {
    const poor = await createMerchant(api().db, { name: 'Poor', openingBalance: 10_000 });
    const refused = await callApi(api().url, poor.secretKey, withdrawal(50_000), { idempotencyKey: 'refused-1' });
    expect(refused.status).toBe(422);
    await api().db.query('UPDATE balances SET available = available + 100000 WHERE merchant_id = $1', [poor.id]);
    const replay = await callApi(api().url, poor.secretKey, withdrawal(50_000), { idempotencyKey: 'refused-1' });
    expect(replay.status).toBe(422);
    expect(replay.text).toBe(refused.text);
    expect(replay.headers.get(REPLAYED)).toBe('true');
  });

  it('does not store validation errors: the key stays usable for the corrected request', async () => {
    const bad = await api().call(withdrawal(-5), { idempotencyKey: 'fix-me' });
    expect(bad.status).toBe(400);
    const good = await api().call(withdrawal(15_000), { idempotencyKey: 'fix-me' });
    expect(good.status).toBe(200);
    expect(good.headers.get(REPLAYED)).toBeNull();
  });

  it('ignores the key on read actions', async () => {
    const a = await api().call({ action: 'get_balance' }, { idempotencyKey: 'read-1' });
    await api().call(withdrawal(10_000));
    const b = await api().call({ action: 'get_balance' }, { idempotencyKey: 'read-1' });
    expect(b.headers.get(REPLAYED)).toBeNull();
    expect(b.body.available).toBe(a.body.available - 10_000);
    const rows = await api().db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', ['read-1']);
    expect(rows).toEqual([]);
  });

  it('50 concurrent requests with one key: exactly one payout, every answer the original or a 409', async () => {
    const before = await ledgerCheck(api().db, api().merchant.id);
    const results = await Promise.all(Array.from({ length: 50 }, () => api().call(withdrawal(12_345), { idempotencyKey: 'storm-1' })));
    const originals = results.filter((r) => r.status === 200);
    const inProgress = results.filter((r) => r.status === 409);
    expect(originals.length + inProgress.length).toBe(50);
    expect(new Set(originals.map((r) => r.text)).size).toBe(1);
    expect(originals.filter((r) => r.headers.get(REPLAYED) === null)).toHaveLength(1);
    for (const r of inProgress) {
      expect(r.body.error.code).toBe('idempotency_request_in_progress');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    const after = await ledgerCheck(api().db, api().merchant.id);
    expect(after.payouts).toBe(before.payouts + 1);
    expect(after.available).toBe(before.available - 12_345);
    expect(after.ledger).toBe(after.available);
    expect(after.pending).toBe(after.pendingSum);
  });

  it('makes checkout session creation idempotent too', async () => {
    const body = { action: 'create_checkout_session', amount: 75_000, description: 'Order 17' };
    const first = await api().call(body, { idempotencyKey: 'cs-1' });
    const again = await api().call(body, { idempotencyKey: 'cs-1' });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    const rows = await api().db.query('SELECT 1 FROM checkout_sessions WHERE merchant_id = $1', [api().merchant.id]);
    expect(rows).toHaveLength(1);
  });
});

describe.each(apiTargets)('idempotency retention ($name)', (backend) => {
  it('treats a key older than the retention period as new, and purges expired keys', async () => {
    await withTestApi(backend, { settings: { idempotencyTtlSeconds: 1 } }, async (api) => {
      const first = await api.call(withdrawal(20_000), { idempotencyKey: 'old-key' });
      const replay = await api.call(withdrawal(20_000), { idempotencyKey: 'old-key' });
      expect(replay.headers.get(REPLAYED)).toBe('true');
      await new Promise((r) => setTimeout(r, 1_100));
      const fresh = await api.call(withdrawal(20_000), { idempotencyKey: 'old-key' });
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get(REPLAYED)).toBeNull();
      expect(fresh.body.id).not.toBe(first.body.id);
      expect((await ledgerCheck(api.db, api.merchant.id)).payouts).toBe(2);
      // A reused expired key may even carry a different request.
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await api.call(withdrawal(30_000), { idempotencyKey: 'old-key' })).status).toBe(200);

      await new Promise((r) => setTimeout(r, 1_100));
      expect(await purgeExpiredIdempotencyKeys(api.db, 1)).toBe(1);
      expect(await api.db.query('SELECT 1 FROM idempotency_keys')).toEqual([]);
    });
  });
});
