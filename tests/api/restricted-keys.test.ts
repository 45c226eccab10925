// Restricted keys, key rolling and who-did-what (docs/api.md, "Keys and permissions"), on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, ACTIONS, PERMISSIONS, type ActionName } from '@/lib/contract';
import { callApi, useTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

const as = (api: TestApi, key: string) => (body: Record<string, unknown>, idempotencyKey?: string) =>
  callApi(api.url, key, body, { idempotencyKey });

/** Everything a denied call could have changed, counted. */
async function stateOf(api: TestApi) {
  const [row] = await api.db.query(
    `SELECT (SELECT count(*) FROM payouts)::int AS payouts, (SELECT count(*) FROM checkout_sessions)::int AS sessions,
            (SELECT count(*) FROM checkout_sessions WHERE status <> 'open')::int AS closed, (SELECT count(*) FROM events)::int AS events,
            (SELECT count(*) FROM webhook_endpoints)::int AS endpoints, (SELECT count(*) FROM webhook_deliveries)::int AS deliveries,
            (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL AND expires_at IS NULL)::int AS keys,
            (SELECT count(*) FROM idempotency_keys)::int AS idempotency, (SELECT count(*) FROM payouts WHERE status = 'pending')::int AS pending,
            (SELECT available FROM balances WHERE merchant_id = $1) AS available,
            (SELECT string_agg(secret_sealed, ',' ORDER BY id) FROM webhook_endpoints) AS secrets,
            (SELECT count(*) FROM webhook_endpoints WHERE disabled)::int AS disabled,
            (SELECT count(*) FROM refunds)::int AS refunds, (SELECT count(*) FROM refunds WHERE status = 'pending')::int AS pending_refunds,
            (SELECT count(*) FROM sandboxes WHERE deleted_at IS NULL)::int AS sandboxes`,
    [api.merchant.id],
  );
  return row;
}

describe.each(backends)('restricted keys ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 50_000_000, settings: { settlementDelaySeconds: 3600 } });
  const secret = () => as(api(), api().merchant.secretKey);
  const restricted = async (permissions: string[], extra: Record<string, unknown> = {}, name = 'Support — Ana') => {
    const res = await secret()({ action: 'create_restricted_key', name, permissions, ...extra });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; secret: string; hint: string };
  };

  it('lets each permission do exactly its actions: the others are 403 permission_denied and change nothing', async () => {
    const s = secret();
    const payout = (await s(withdrawal(10_000))).body;
    const batch = (
      await s({ action: 'create_payout_batch', payouts: [{ amount: 10_000, bank_code: 'BCA', account_number: '1234567890' }] })
    ).body;
    const [cs1, cs2] = [
      (await s({ action: 'create_checkout_session', amount: 5_000 })).body,
      (await s({ action: 'create_checkout_session', amount: 5_000 })).body,
    ];
    const ep = (await s({ action: 'create_webhook_endpoint', url: 'https://example.com/hook' })).body;
    const doomed = (await s({ action: 'create_webhook_endpoint', url: 'https://example.com/other' })).body;
    const event = (await s({ action: 'list_events', limit: 1 })).body.data[0];
    const someKey = await restricted(['balance:read'], {}, 'Someone');
    const paid = (await s({ action: 'create_checkout_session', amount: 5_000 })).body;
    await s({ action: 'simulate_checkout_payment', id: paid.id });
    const refund = (await s({ action: 'create_refund', checkout_session_id: paid.id, amount: 1_000 })).body;
    // Two payouts of the secret key that wait for approval, for the key with payouts:approve to approve and reject.
    expect((await s({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' })).status).toBe(200);
    const [toApprove, toReject] = [(await s(withdrawal(10_000))).body, (await s(withdrawal(10_000))).body];
    expect([toApprove.status, toReject.status]).toEqual(['awaiting_approval', 'awaiting_approval']);
    const [kept, doomedSandbox] = [(await s({ action: 'create_sandbox' })).body, (await s({ action: 'create_sandbox' })).body];
    // A valid request for every action: a new action without one does not compile.
    const requests: Record<ActionName, Record<string, unknown>> = {
      get_balance: {},
      get_statement: { month: '2026-01' },
      withdraw: withdrawal(10_000),
      get_payout: { id: payout.id },
      list_payouts: {},
      summarize_payouts: { status: 'pending' },
      create_payout_batch: { payouts: [{ amount: 10_000, bank_code: 'BCA', account_number: '1234567890' }] },
      get_payout_batch: { id: batch.id },
      list_payout_batches: {},
      create_checkout_session: { amount: 5_000 },
      get_checkout_session: { id: cs1.id },
      list_checkout_sessions: {},
      expire_checkout_session: { id: cs1.id },
      simulate_payout: { id: payout.id, outcome: 'paid' },
      simulate_checkout_payment: { id: cs2.id },
      create_test_topup: { amount: 1 },
      list_events: {},
      get_event: { id: event.id },
      create_webhook_endpoint: { url: 'https://example.com/new' },
      list_webhook_endpoints: {},
      get_webhook_endpoint: { id: ep.id },
      update_webhook_endpoint: { id: ep.id, disabled: false },
      delete_webhook_endpoint: { id: doomed.id },
      rotate_webhook_secret: { id: ep.id },
      list_webhook_deliveries: {},
      resend_event: { id: event.id, endpoint_id: ep.id },
      create_restricted_key: { name: 'x', permissions: ['balance:read'] },
      get_current_key: {},
      list_api_keys: {},
      revoke_api_key: { id: someKey.id },
      roll_secret_key: { expires_in_seconds: 60 },
      list_requests: {},
      get_idempotent_request: { idempotency_key: 'none-such' },
      list_balance_transactions: {},
      create_refund: { checkout_session_id: paid.id, amount: 1_000 },
      get_refund: { id: refund.id },
      list_refunds: {},
      simulate_refund: { id: refund.id },
      summarize_balance: { days: 7 },
      get_payout_approval_policy: {},
      update_payout_approval_policy: { required: false },
      approve_payouts: { ids: [toApprove.id] },
      reject_payouts: { ids: [toReject.id], reason: 'Not ours' },
      validate_bank_account: { bank_code: 'BCA', account_number: '1234567890' },
      get_account_settings: {},
      update_account_settings: { time_zone: 'Asia/Jakarta' },
      create_sandbox: {},
      list_sandboxes: {},
      get_sandbox: { id: kept.id },
      delete_sandbox: { id: doomedSandbox.id },
      reset_sandbox: { id: kept.id },
      // Only a sandbox with a test clock has one: any key may ask, this merchant's is a 400.
      get_test_clock: {},
      advance_test_clock: { seconds: 1 },
    };
    for (const permission of PERMISSIONS) {
      const key = await restricted([permission], {}, `only ${permission}`);
      const call = as(api(), key.secret);
      for (const name of ACTION_NAMES) {
        const allowed = ACTIONS[name].permission === permission || ACTIONS[name].permission === 'any_key';
        const before = allowed ? undefined : await stateOf(api());
        const res = await call({ action: name, ...requests[name] });
        if (allowed) {
          expect(res.status, `${permission} may call ${name}: ${res.text}`).not.toBe(403);
          if (name !== 'get_idempotent_request' && name !== 'get_test_clock')
            expect(res.status, `${permission} calling ${name}: ${res.text}`).toBe(200);
        } else {
          expect([res.status, res.body.error.code, res.body.error.type], `${permission} calling ${name}`).toEqual([
            403,
            'permission_denied',
            'permission_error',
          ]);
          expect(res.body.error.message).toContain(ACTIONS[name].permission === 'secret_key' ? 'secret key' : ACTIONS[name].permission);
          expect(await stateOf(api()), `${permission} calling ${name} changed something`).toEqual(before);
        }
      }
    }
    // Every permission against every action, each refusal with the state read before and after: a minute of work on a busy machine.
  }, 120_000);

  it('checks the key before the permission, and keeps the key actions to the secret key', async () => {
    const all = await restricted([...PERMISSIONS], {}, 'Everything');
    for (const name of ['create_restricted_key', 'list_api_keys', 'revoke_api_key', 'roll_secret_key'] as const) {
      const res = await as(api(), all.secret)({ action: name, id: all.id, name: 'x', permissions: ['balance:read'] });
      expect(res.status === 403 || res.status === 400, res.text).toBe(true);
      if (res.status === 403) expect(res.body.error.code).toBe('permission_denied');
    }
    expect((await as(api(), all.secret)({ action: 'list_api_keys' })).status).toBe(403);
    const forged = `rk_test_${'x'.repeat(40)}`;
    expect((await as(api(), forged)({ action: 'list_api_keys' })).status).toBe(401);
  });

  it('tells any working key what it is (get_current_key), and nothing about other keys', async () => {
    const key = await restricted(['payouts:write', 'balance:read'], { max_payout_amount: 70_000 }, 'Support — Ana');
    const mine = await as(api(), key.secret)({ action: 'get_current_key' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({
      object: 'api_key',
      id: key.id,
      type: 'restricted',
      name: 'Support — Ana',
      hint: key.hint,
      permissions: ['payouts:write', 'balance:read'],
      max_payout_amount: 70_000,
      merchant: { id: api().merchant.id, name: api().merchant.name, time_zone: 'Asia/Jakarta' },
    });
    expect(mine.text).not.toContain(key.secret.slice(8));
    const owner = await secret()({ action: 'get_current_key' });
    expect(owner.body).toMatchObject({
      type: 'secret',
      name: null,
      permissions: null,
      max_payout_amount: null,
      merchant: { id: api().merchant.id },
    });
    expect(owner.body.id).not.toBe(key.id);
    // A revoked key is a 401, never a description of itself.
    await secret()({ action: 'revoke_api_key', id: key.id });
    expect((await as(api(), key.secret)({ action: 'get_current_key' })).status).toBe(401);
  });

  it('refuses a payout above max_payout_amount before anything is debited', async () => {
    const key = await restricted(['payouts:write', 'balance:read'], { max_payout_amount: 50_000 });
    const call = as(api(), key.secret);
    const before = (await call({ action: 'get_balance' })).body.available;
    const over = await call(withdrawal(50_001));
    expect([over.status, over.body.error.code, over.body.error.param]).toEqual([403, 'payout_limit_exceeded', 'amount']);
    const batch = await call({
      action: 'create_payout_batch',
      payouts: [
        { amount: 10_000, bank_code: 'BCA', account_number: '1234567890' },
        { amount: 60_000, bank_code: 'BCA', account_number: '1234567890' },
      ],
    });
    expect([batch.status, batch.body.error.param]).toEqual([403, 'payouts[1].amount']);
    expect((await call({ action: 'get_balance' })).body.available).toBe(before);
    expect((await call(withdrawal(50_000))).status).toBe(200);
  });

  it('records who made each payout, session and endpoint, in the objects and their events', async () => {
    const key = await restricted(
      ['payouts:write', 'payouts:read', 'checkout_sessions:write', 'webhooks:write', 'events:read'],
      {},
      'Support — Ana',
    );
    const call = as(api(), key.secret);
    const who = { key_id: key.id, key_name: 'Support — Ana', type: 'restricted' };
    const payout = (await call(withdrawal(10_000))).body;
    expect(payout.created_by).toEqual(who);
    expect((await call({ action: 'get_payout', id: payout.id })).body.created_by).toEqual(who);
    expect((await call({ action: 'create_checkout_session', amount: 5_000 })).body.created_by).toEqual(who);
    expect((await call({ action: 'create_webhook_endpoint', url: 'https://example.com/who' })).body.created_by).toEqual(who);
    const [event] = (await call({ action: 'list_events', type: 'payout.created', limit: 1 })).body.data;
    expect(event.data.object).toEqual(payout);
    const mine = (await secret()(withdrawal(10_000))).body.created_by;
    expect(mine).toMatchObject({ type: 'secret', key_name: null });
    // Revoked later, the record stays.
    await secret()({ action: 'revoke_api_key', id: key.id });
    expect((await secret()({ action: 'get_payout', id: payout.id })).body.created_by).toEqual(who);
  });

  it('shows a key once: stored as a hash, a replay answers it with secret null', async () => {
    const body = { action: 'create_restricted_key', name: 'Replayed', permissions: ['balance:read'] };
    const first = await secret()(body, `rk-${backend.name}`);
    const again = await secret()(body, `rk-${backend.name}`);
    expect(first.body.secret).toMatch(/^rk_test_[0-9A-Za-z]{40}$/);
    expect(first.body.hint).toBe(`rk_test_…${first.body.secret.slice(-4)}`);
    expect(again.headers.get('x-service-idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, secret: null });
    const [stored] = await api().db.query<{ all: string }>(
      `SELECT (SELECT string_agg(row_to_json(k)::text, '') FROM api_keys k) || (SELECT string_agg(coalesce(response_body, ''), '') FROM idempotency_keys) AS all`,
    );
    expect(stored!.all).not.toContain(first.body.secret.slice(8));
    const list = await secret()({ action: 'list_api_keys' });
    expect(list.text).not.toContain(first.body.secret.slice(8));
    expect(list.body.data.find((k: { id: string }) => k.id === first.body.id)).toMatchObject({
      type: 'restricted',
      name: 'Replayed',
      permissions: ['balance:read'],
    });
  });

  it('refuses bad key requests with a 400 naming the field', async () => {
    const bad = async (body: Record<string, unknown>) =>
      (await secret()({ action: 'create_restricted_key', name: 'x', permissions: ['balance:read'], ...body })).body.error;
    expect(await bad({ name: '' })).toMatchObject({ code: 'invalid_request', param: 'name' });
    expect(await bad({ name: 'x'.repeat(101) })).toMatchObject({ param: 'name' });
    expect(await bad({ permissions: [] })).toMatchObject({ param: 'permissions' });
    expect(await bad({ permissions: ['payouts:delete'] })).toMatchObject({ param: 'permissions[0]' });
    expect(await bad({ permissions: ['balance:read', 'balance:read'] })).toMatchObject({ param: 'permissions' });
    expect(await bad({ max_payout_amount: 0 })).toMatchObject({ param: 'max_payout_amount' });
    expect((await secret()({ action: 'roll_secret_key', expires_in_seconds: 604_801 })).body.error).toMatchObject({
      param: 'expires_in_seconds',
    });
    const [current] = (await secret()({ action: 'list_api_keys' })).body.data.filter((k: { type: string }) => k.type === 'secret');
    expect((await secret()({ action: 'revoke_api_key', id: current.id })).body.error).toMatchObject({
      code: 'invalid_request',
      param: 'id',
    });
    expect((await secret()({ action: 'revoke_api_key', id: 'key_nope' })).status).toBe(404);
  });

  it('revokes a restricted key from its next request on', async () => {
    const key = await restricted(['balance:read']);
    expect((await as(api(), key.secret)({ action: 'get_balance' })).status).toBe(200);
    expect((await secret()({ action: 'revoke_api_key', id: key.id })).body.revoked_at).toEqual(expect.any(String));
    expect((await as(api(), key.secret)({ action: 'get_balance' })).status).toBe(401);
  });

  it('records last use at most once a minute per key', async () => {
    const key = await restricted(['balance:read'], {}, 'Throttled');
    const lastUsed = async () =>
      (await api().db.query<{ t: Date | null }>(`SELECT last_used_at AS t FROM api_keys WHERE id = $1`, [key.id]))[0]!.t;
    expect(await lastUsed()).toBeNull();
    await as(api(), key.secret)({ action: 'get_balance' });
    await expect.poll(lastUsed).not.toBeNull();
    const first = (await lastUsed())!.getTime();
    for (let i = 0; i < 5; i++) await as(api(), key.secret)({ action: 'get_balance' });
    await new Promise((r) => setTimeout(r, 100));
    expect((await lastUsed())!.getTime()).toBe(first);
    await api().db.query(`UPDATE api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = $1`, [key.id]);
    const aged = (await lastUsed())!.getTime();
    await as(api(), key.secret)({ action: 'get_balance' });
    await expect.poll(async () => (await lastUsed())!.getTime()).toBeGreaterThan(aged);
  });

  // Last: it replaces the secret key the other tests use.
  it('rolls the secret key with a grace period: the old key works until expires_at, then 401', async () => {
    const old = api().merchant.secretKey;
    const rolled = await secret()({ action: 'roll_secret_key', expires_in_seconds: 2 });
    expect(rolled.body).toMatchObject({ object: 'api_key', type: 'secret', secret: expect.stringMatching(/^sk_test_/) });
    const next = rolled.body.secret as string;
    expect((await as(api(), old)({ action: 'get_balance' })).status).toBe(200);
    expect((await as(api(), next)({ action: 'get_balance' })).status).toBe(200);
    const keys = (await as(api(), next)({ action: 'list_api_keys' })).body.data.filter((k: { type: string }) => k.type === 'secret');
    expect(keys.map((k: { expires_at: string | null }) => k.expires_at === null).sort()).toEqual([false, true]);
    await expect.poll(async () => (await as(api(), old)({ action: 'get_balance' })).status, { timeout: 5_000, interval: 250 }).toBe(401);
    expect((await as(api(), next)({ action: 'get_balance' })).status).toBe(200);
    // 0, the default: the old key is revoked at once.
    const now = (await as(api(), next)({ action: 'roll_secret_key' })).body.secret;
    expect((await as(api(), next)({ action: 'get_balance' })).status).toBe(401);
    expect((await as(api(), now)({ action: 'get_balance' })).status).toBe(200);
    api().merchant.secretKey = now;
  });
});
