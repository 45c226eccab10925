// Real answers of the API, successes and errors, validate against the OpenAPI document's schema for their action and status (ajv, 2020-12).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, API_PATH, ERROR_CODES, type ActionName, type ErrorCode } from '@/lib/contract';
import { buildOpenApiDocument } from '@/lib/openapi';
import { callApi, useTestApi, withdrawal, type ApiResult } from '../helpers/api-server';
import { freshAuthWindow } from '../helpers/auth-window';
import { pgliteBackend } from '../../testing/databases';

const doc = buildOpenApiDocument();
const operation = doc.paths[API_PATH].post;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(doc, 'openapi.json');
const validatorOf = (ref: string) => ajv.getSchema(`openapi.json${ref}`)!;

/** Every answer seen, checked after the calls: the action's object for a 2xx, Error<status> otherwise. */
const seen: { action: ActionName; res: ApiResult }[] = [];
const errorsSeen = new Set<string>();

function check(action: ActionName, res: ApiResult) {
  seen.push({ action, res });
  const ref = res.status === 200 ? operation['x-actions'][action].response : `#/components/schemas/Error${res.status}`;
  const validate = validatorOf(ref);
  expect(validate, `the document has a schema for ${action} ${res.status}`).toBeTypeOf('function');
  if (!validate(res.body))
    throw new Error(`${action} ${res.status} does not match ${ref}: ${ajv.errorsText(validate.errors)}\n${res.text}`);
  expect(res.headers.get('request-id')).toMatch(/^req_/);
  if (res.status !== 200) {
    const code = res.body.error.code as ErrorCode;
    errorsSeen.add(code);
    expect(ERROR_CODES[code].status).toBe(res.status);
    if (['idempotency_request_in_progress', 'rate_limited', 'service_unavailable'].includes(code))
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  return res;
}

describe('answers of the real API against the OpenAPI document', () => {
  const api = useTestApi(pgliteBackend, {
    openingBalance: 5_000_000,
    settings: { settlementDelaySeconds: 3600, authFailuresPerMinute: 3 },
  });
  const call = async (action: ActionName, body: Record<string, unknown> = {}, opts?: Parameters<ReturnType<typeof api>['call']>[1]) =>
    check(action, await api().call({ action, ...body }, opts));

  it('every action answers with its documented object', async () => {
    await call('get_balance');
    const payout = (await call('withdraw', withdrawal(60_000), { idempotencyKey: 'oa-1' })).body;
    const replay = await call('withdraw', withdrawal(60_000), { idempotencyKey: 'oa-1' });
    expect(replay.headers.get('x-service-idempotent-replayed')).toBe('true');
    await call('get_payout', { id: payout.id });
    await call('list_payouts', { limit: 5, status: 'pending', account_last4: '7890', created_gte: '2020-01-01T00:00:00Z' });
    await call('summarize_payouts', { status: 'pending', created_lt: new Date(Date.now() + 60_000).toISOString() });
    const batch = (
      await call('create_payout_batch', { payouts: [{ amount: 10_000, bank_code: 'BNI', account_number: '123456', reference: 'r-1' }] })
    ).body;
    await call('get_payout_batch', { id: batch.id });
    await call('list_payout_batches');
    const session = (await call('create_checkout_session', { amount: 25_000, description: 'Tea', success_url: 'https://shop.example/ok' }))
      .body;
    await call('get_checkout_session', { id: session.id });
    await call('list_checkout_sessions', { limit: 2 });
    await call('simulate_checkout_payment', { id: session.id });
    const other = (await call('create_checkout_session', { amount: 5_000 })).body;
    await call('expire_checkout_session', { id: other.id });
    await call('simulate_payout', { id: payout.id, outcome: 'failed', failure_code: 'invalid_account' });
    await call('create_test_topup', { amount: 1_000 });
    await call('list_events', { limit: 3, object_id: payout.id });
    const event = (await call('list_events', { type: 'payout.failed', limit: 1 })).body.data[0];
    await call('get_event', { id: event.id });
    const ep = (
      await call(
        'create_webhook_endpoint',
        { url: 'https://example.com/hook', enabled_events: ['payout.paid'] },
        { idempotencyKey: 'oa-we' },
      )
    ).body;
    await call(
      'create_webhook_endpoint',
      { url: 'https://example.com/hook', enabled_events: ['payout.paid'] },
      { idempotencyKey: 'oa-we' },
    ); // secret null
    await call('list_webhook_endpoints');
    await call('get_webhook_endpoint', { id: ep.id });
    await call('update_webhook_endpoint', { id: ep.id, enabled_events: ['*'] });
    await call('rotate_webhook_secret', { id: ep.id });
    await call('resend_event', { id: event.id, endpoint_id: ep.id });
    await call('list_webhook_deliveries', { endpoint_id: ep.id });
    await call('delete_webhook_endpoint', { id: ep.id });
    const key = (await call('create_restricted_key', { name: 'Support', permissions: ['payouts:read'], max_payout_amount: 100_000 })).body;
    await call('get_current_key');
    await call('list_api_keys');
    await call('revoke_api_key', { id: key.id });
    await call('roll_secret_key', { expires_in_seconds: 3600 });
    await api().flushRequestLog!();
    await call('list_requests', { request_action: 'withdraw', limit: 2 });
    await call('get_idempotent_request', { idempotency_key: 'oa-1' });
    await call('list_balance_transactions', { limit: 5 });
    await call('summarize_balance', { days: 7 });
    await call('get_statement', { month: '2026-10' });
    await call('get_balance', { as_of: new Date(Date.now() - 60_000).toISOString() });
    const refund = (
      await call('create_refund', { checkout_session_id: session.id, amount: 5_000, reason: 'Too much tea' }, { idempotencyKey: 'oa-re' })
    ).body;
    await call('get_refund', { id: refund.id });
    await call('list_refunds', { checkout_session_id: session.id, status: 'pending' });
    await call('simulate_refund', { id: refund.id, outcome: 'failed' });
    // Payout approvals and holder names: a support key's payouts wait; the secret key decides them.
    await call('get_payout_approval_policy');
    await call('update_payout_approval_policy', { required: true }, { idempotencyKey: 'oa-policy' });
    const maker = (await call('create_restricted_key', { name: 'Maker', permissions: ['payouts:write'] })).body;
    const waiting = async () =>
      check('withdraw', await callApi(api().url, maker.secret, withdrawal(20_000, { account_holder_name: 'santoso budi' }))).body;
    const [w1, w2] = [await waiting(), await waiting()];
    await call('approve_payouts', { ids: [w1.id] }, { idempotencyKey: 'oa-approve' });
    await call('reject_payouts', { ids: [w2.id], reason: 'Not ours' });
    await call('validate_bank_account', { bank_code: 'BCA', account_number: '4000000001' });
    await call('get_account_settings', {});
    await call('update_account_settings', { time_zone: 'Asia/Jakarta' });
    await call('update_payout_approval_policy', { required: false });
    // Sandboxes.
    const sandbox = (await call('create_sandbox', { name: 'OpenAPI' }, { idempotencyKey: 'oa-sbx' })).body;
    await call('create_sandbox', { name: 'OpenAPI' }, { idempotencyKey: 'oa-sbx' });
    await call('list_sandboxes', {});
    await call('get_sandbox', { id: sandbox.id });
    await call('reset_sandbox', { id: sandbox.id });
    await call('delete_sandbox', { id: sandbox.id });
    const clocked = (await call('create_sandbox', { test_clock: true })).body;
    const sandboxCall = (name: string, body: Record<string, unknown>) => callApi(api().url, clocked.secret_key, { action: name, ...body });
    check('get_test_clock', await sandboxCall('get_test_clock', {}));
    check('advance_test_clock', await sandboxCall('advance_test_clock', { seconds: 60 }));
    expect(new Set(seen.filter((s) => s.res.status === 200).map((s) => s.action))).toEqual(new Set(ACTION_NAMES));
  });

  it('errors of every kind the suite can provoke match Error<status> with their code', async () => {
    const payout = (await call('withdraw', withdrawal(20_000))).body;
    await call('simulate_payout', { id: payout.id, outcome: 'paid' });
    await call('simulate_payout', { id: payout.id, outcome: 'paid' }); // 409 payout_not_pending
    await call('withdraw', { ...withdrawal(5) }); // 400 invalid_request
    await call('withdraw', withdrawal(50_000), { idempotencyKey: 'bad key with spaces' }); // 400 invalid_idempotency_key
    await call('withdraw', withdrawal(99_000_000)); // 422 insufficient_funds
    await call('withdraw', withdrawal(30_000), { idempotencyKey: 'oa-reuse' });
    await call('withdraw', withdrawal(40_000), { idempotencyKey: 'oa-reuse' }); // 422 idempotency_key_reused
    await call('get_payout', { id: 'po_missing' }); // 404
    const session = (await call('create_checkout_session', { amount: 5_000 })).body;
    await call('simulate_checkout_payment', { id: session.id, card_number: '4000000000000002' }); // 402 card_declined
    await call('expire_checkout_session', { id: session.id });
    await call('simulate_checkout_payment', { id: session.id }); // 409 checkout_session_not_open
    await call('create_refund', { checkout_session_id: session.id }); // 409 checkout_session_not_paid
    const paid = (await call('create_checkout_session', { amount: 5_000 })).body;
    await call('simulate_checkout_payment', { id: paid.id });
    const refund = (await call('create_refund', { checkout_session_id: paid.id })).body;
    await call('create_refund', { checkout_session_id: paid.id, amount: 1 }); // 422 refund_amount_exceeded
    await call('simulate_refund', { id: refund.id });
    await call('simulate_refund', { id: refund.id }); // 409 refund_not_pending
    check('get_balance', await api().call({ action: 'nope' })); // 400 unknown_action
    check('get_balance', await api().call(null, { raw: '{"action":' })); // 400 invalid_json
    check('get_balance', await api().call(null, { raw: '{}', headers: { 'content-type': 'text/plain' } })); // 415
    check('get_balance', await api().call(null, { raw: JSON.stringify({ action: 'get_balance', pad: 'x'.repeat(300 * 1024) }) })); // 413
    const get = await fetch(api().url + API_PATH, { headers: { authorization: `Bearer ${api().merchant.secretKey}` } });
    check('get_balance', { status: get.status, headers: get.headers, text: '', body: await get.json() }); // 405
    await call('withdraw', withdrawal(20_000, { account_holder_name: 'Someone Else' })); // 422 account_name_mismatch
    await call('approve_payouts', { ids: [payout.id] }); // 409 payout_not_awaiting_approval (it is paid)
    await call('update_payout_approval_policy', { required: true, for_keys: 'all' });
    const own = (await call('withdraw', withdrawal(20_000))).body;
    await call('reject_payouts', { ids: [own.id], reason: 'mine' }); // 403 self_approval_not_allowed
    await call('update_payout_approval_policy', { required: false });
    await freshAuthWindow(5);
    for (let i = 0; i < 4; i++) check('get_balance', await callApi(api().url, 'sk_test_' + 'x'.repeat(40), { action: 'get_balance' })); // 401, then 429
    expect([...errorsSeen].sort()).toEqual(
      [
        'card_declined',
        'checkout_session_not_open',
        'checkout_session_not_paid',
        'refund_amount_exceeded',
        'refund_not_pending',
        'idempotency_key_reused',
        'insufficient_funds',
        'invalid_idempotency_key',
        'invalid_json',
        'invalid_request',
        'method_not_allowed',
        'not_found',
        'payload_too_large',
        'payout_not_pending',
        'rate_limited',
        'unauthorized',
        'unknown_action',
        'unsupported_media_type',
        'account_name_mismatch',
        'payout_not_awaiting_approval',
        'self_approval_not_allowed',
      ].sort(),
    );
  });
});
