// Refunds of paid checkout sessions (docs/api.md, "Refunds"), over real HTTP on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { REFUND_FAILING_TEST_CARD } from '@/lib/contract';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDueRefunds, settleRefund } from '@/lib/payments/refunds/refund-settlement';
import { callApi, useTestApi, withdrawal, type ApiResult } from '../helpers/api-server';
import { backends, postgresBackend, postgresUrl } from '../../testing/databases';
import { isExact, refundCheck } from '../../testing/ledger';
import { useWebhookDelivery } from '../helpers/webhook-delivery';
import type { JsonAnswer } from '../helpers/json-answer';

type Call = (body: Record<string, unknown>, opts?: { idempotencyKey?: string }) => Promise<ApiResult<JsonAnswer>>;

describe.each(backends)('refunds ($name)', (backend) => {
  // An hour's settlement delay: refunds settle only when a test says so.
  const api = useTestApi(backend, { openingBalance: 0, settings: { settlementDelaySeconds: 3600 } });

  /** A merchant of its own with `opening` available, and its caller. */
  async function shop(opening = 0) {
    const m = await createMerchant(api().db, { name: 'Refunder', openingBalance: opening });
    const call: Call = (body, opts) => callApi(api().url, m.secretKey, body, opts);
    return { m, call };
  }
  /** A session of `amount` paid with `card`. */
  async function paid(call: Call, amount: number, card?: string) {
    const s = (await call({ action: 'create_checkout_session', amount })).body;
    const res = await call({ action: 'simulate_checkout_payment', id: s.id, ...(card ? { card_number: card } : {}) });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: string; amount: number };
  }
  const session = async (call: Call, id: string) => (await call({ action: 'get_checkout_session', id })).body;
  const balance = async (call: Call) => (await call({ action: 'get_balance' })).body;
  const dueNow = (id: string) => api().db.query(`UPDATE refunds SET settle_after = now() WHERE id = $1`, [id]);

  it('a partial refund, then the rest without an amount: pending refunds out of available, the session refunded in full', async () => {
    const { m, call } = await shop();
    const cs = await paid(call, 100_000);
    const first = await call(
      { action: 'create_refund', checkout_session_id: cs.id, amount: 30_000, reason: 'One item returned' },
      { idempotencyKey: 'r-1' },
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      object: 'refund',
      id: expect.stringMatching(/^re_[0-9A-Za-z]{24}$/),
      checkout_session_id: cs.id,
      amount: 30_000,
      currency: 'IDR',
      status: 'pending',
      reason: 'One item returned',
      failure_code: null,
      failure_message: null,
      created_at: expect.any(String),
      settled_at: null,
      created_by: { key_id: expect.any(String), key_name: null, type: 'secret' },
      livemode: false,
    });
    expect(await session(call, cs.id)).toMatchObject({ status: 'complete', amount_refunded: 30_000 });
    expect(await balance(call)).toMatchObject({ available: 70_000, pending_payouts: 0, pending_refunds: 30_000 });

    const rest = await call({ action: 'create_refund', checkout_session_id: cs.id });
    expect(rest.body).toMatchObject({ amount: 70_000, status: 'pending', reason: null });
    expect(await session(call, cs.id)).toMatchObject({ status: 'refunded', amount_refunded: 100_000 });
    expect(await balance(call)).toMatchObject({ available: 0, pending_refunds: 100_000 });

    // The balance history shows both, with their source.
    const history = (await call({ action: 'list_balance_transactions', type: 'refund' })).body.data;
    expect(history.map((t: JsonAnswer) => [t.amount, t.source, t.balance_after])).toEqual([
      [-70_000, rest.body.id, 0],
      [-30_000, first.body.id, 70_000],
    ]);
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('refuses a refund beyond what is left with 422 refund_amount_exceeded naming amount, and changes nothing', async () => {
    const { m, call } = await shop(1_000_000);
    const cs = await paid(call, 50_000);
    await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 20_000 });
    const before = await refundCheck(api().db, m.id);
    const over = await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 30_001 });
    expect([over.status, over.body.error.code, over.body.error.param]).toEqual([422, 'refund_amount_exceeded', 'amount']);
    expect(await refundCheck(api().db, m.id)).toEqual(before);
    expect((await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 30_000 })).status).toBe(200);
    // Refunded in full: nothing is left, with or without an amount.
    for (const body of [{}, { amount: 1 }]) {
      const res = await call({ action: 'create_refund', checkout_session_id: cs.id, ...body });
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([422, 'refund_amount_exceeded', 'amount']);
    }
    // A refunded session cannot be expired either.
    const expire = await call({ action: 'expire_checkout_session', id: cs.id });
    expect([expire.status, expire.body.error.code]).toEqual([409, 'checkout_session_not_open']);
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('refunds only a paid session of this merchant, and validates the fields', async () => {
    const { call } = await shop(1_000_000);
    const open = (await call({ action: 'create_checkout_session', amount: 10_000 })).body;
    const notPaid = await call({ action: 'create_refund', checkout_session_id: open.id });
    expect([notPaid.status, notPaid.body.error.code, notPaid.body.error.param]).toEqual([
      409,
      'checkout_session_not_paid',
      'checkout_session_id',
    ]);
    await call({ action: 'expire_checkout_session', id: open.id });
    expect((await call({ action: 'create_refund', checkout_session_id: open.id, amount: 1_000 })).body.error.code).toBe(
      'checkout_session_not_paid',
    );

    const cs = await paid(call, 10_000);
    const stranger = await shop(1_000_000);
    const foreign = await stranger.call({ action: 'create_refund', checkout_session_id: cs.id, amount: 1_000 });
    const missing = await stranger.call({ action: 'create_refund', checkout_session_id: 'cs_nonesuch', amount: 1_000 });
    expect([foreign.status, foreign.body.error.code, foreign.body.error.param]).toEqual([404, 'not_found', 'checkout_session_id']);
    expect(missing.status).toBe(404);
    expect((await session(call, cs.id)).amount_refunded).toBe(0);

    const bad: [Record<string, unknown>, string][] = [
      [{ amount: 1_000 }, 'checkout_session_id'],
      [{ checkout_session_id: 'po_123', amount: 1_000 }, 'checkout_session_id'],
      [{ checkout_session_id: cs.id, amount: 0 }, 'amount'],
      [{ checkout_session_id: cs.id, amount: 10.5 }, 'amount'],
      [{ checkout_session_id: cs.id, amount: '1000' }, 'amount'],
      [{ checkout_session_id: cs.id, reason: '' }, 'reason'],
      [{ checkout_session_id: cs.id, reason: 'x'.repeat(501) }, 'reason'],
      [{ checkout_session_id: cs.id, surprise: 1 }, 'surprise'],
    ];
    for (const [body, param] of bad) {
      const res = await call({ action: 'create_refund', ...body });
      expect([res.status, res.body.error.code, res.body.error.param], JSON.stringify(body)).toEqual([400, 'invalid_request', param]);
    }
    expect((await session(call, cs.id)).amount_refunded).toBe(0);
  });

  it('two refunds of the whole amount at once: exactly one succeeds, every time', async () => {
    const { m, call } = await shop(10_000_000);
    for (let round = 0; round < 5; round++) {
      const cs = await paid(call, 80_000);
      const both = await Promise.all([
        call({ action: 'create_refund', checkout_session_id: cs.id, amount: 80_000 }, { idempotencyKey: `full-a-${round}` }),
        call({ action: 'create_refund', checkout_session_id: cs.id }, { idempotencyKey: `full-b-${round}` }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(both.find((r) => r.status === 422)!.body.error.code).toBe('refund_amount_exceeded');
      expect(await session(call, cs.id)).toMatchObject({ status: 'refunded', amount_refunded: 80_000 });
    }
    // Eight partial refunds of 30,000 of a 100,000 payment at once: three fit.
    const cs = await paid(call, 100_000);
    const eight = await Promise.all(
      Array.from({ length: 8 }, () => call({ action: 'create_refund', checkout_session_id: cs.id, amount: 30_000 })),
    );
    expect(eight.filter((r) => r.status === 200)).toHaveLength(3);
    expect(eight.filter((r) => r.status === 422).every((r) => r.body.error.code === 'refund_amount_exceeded')).toBe(true);
    expect(await session(call, cs.id)).toMatchObject({ status: 'complete', amount_refunded: 90_000 });
    const check = await refundCheck(api().db, m.id);
    expect(isExact(check)).toBe(true);
    expect(check.pendingRefunds).toBe(5 * 80_000 + 90_000);
  });

  it('refuses a refund larger than available with 422 insufficient_funds: the session is untouched, with or without a key', async () => {
    const { m, call } = await shop(0);
    const cs = await paid(call, 50_000);
    expect((await call(withdrawal(40_000))).status).toBe(200);
    const before = await refundCheck(api().db, m.id);
    for (const idempotencyKey of [undefined, 'short-1']) {
      const res = await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 20_000 }, { idempotencyKey });
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([422, 'insufficient_funds', 'amount']);
      expect(await session(call, cs.id)).toMatchObject({ status: 'complete', amount_refunded: 0 });
      expect(await refundCheck(api().db, m.id)).toEqual(before);
    }
    // The refusal is what the key answers from then on, even once funds arrive.
    await call({ action: 'create_test_topup', amount: 100_000 });
    const replay = await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 20_000 }, { idempotencyKey: 'short-1' });
    expect([replay.status, replay.headers.get('x-service-idempotent-replayed'), replay.body.error.code]).toEqual([
      422,
      'true',
      'insufficient_funds',
    ]);
    expect(
      (await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 20_000 }, { idempotencyKey: 'short-2' })).status,
    ).toBe(200);
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('settles pending refunds in the background: succeeded, out of pending_refunds for good', async () => {
    const { m, call } = await shop();
    const cs = await paid(call, 60_000);
    const refund = (await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 25_000 })).body;
    expect(await settleDueRefunds(api().db)).toMatchObject({ succeeded: 0, failed: 0 }); // not due yet
    await dueNow(refund.id);
    const settled = await settleDueRefunds(api().db);
    expect(settled.succeeded).toBeGreaterThanOrEqual(1);
    const after = (await call({ action: 'get_refund', id: refund.id })).body;
    expect(after).toMatchObject({ status: 'succeeded', failure_code: null, settled_at: expect.any(String) });
    expect(await balance(call)).toMatchObject({ available: 35_000, pending_refunds: 0 });
    expect(await session(call, cs.id)).toMatchObject({ status: 'complete', amount_refunded: 25_000 });
    // simulate_refund settles now; a settled refund is 409.
    const second = (await call({ action: 'create_refund', checkout_session_id: cs.id })).body;
    const simulated = await call({ action: 'simulate_refund', id: second.id });
    expect(simulated.body).toMatchObject({ id: second.id, status: 'succeeded' });
    const again = await call({ action: 'simulate_refund', id: second.id });
    expect([again.status, again.body.error.code]).toEqual([409, 'refund_not_pending']);
    expect(await balance(call)).toMatchObject({ available: 0, pending_refunds: 0 });
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('a refund of a session paid with the failing test card fails: money back to available with a ledger entry, the session refundable again', async () => {
    const { m, call } = await shop();
    const cs = await paid(call, 40_000, REFUND_FAILING_TEST_CARD);
    const refund = (await call({ action: 'create_refund', checkout_session_id: cs.id })).body;
    expect(await session(call, cs.id)).toMatchObject({ status: 'refunded', amount_refunded: 40_000 });
    expect(await balance(call)).toMatchObject({ available: 0, pending_refunds: 40_000 });
    await dueNow(refund.id);
    expect((await settleDueRefunds(api().db)).failed).toBeGreaterThanOrEqual(1);
    const failed = (await call({ action: 'get_refund', id: refund.id })).body;
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'expired_or_canceled_card',
      failure_message: expect.any(String),
      settled_at: expect.any(String),
    });
    expect(await balance(call)).toMatchObject({ available: 40_000, pending_refunds: 0 });
    expect(await session(call, cs.id)).toMatchObject({ status: 'complete', amount_refunded: 0 });
    const reversal = (await call({ action: 'list_balance_transactions', type: 'refund_reversal' })).body.data;
    expect(reversal.map((t: JsonAnswer) => [t.amount, t.source, t.balance_after])).toEqual([[40_000, refund.id, 40_000]]);
    // simulate_refund can fail any refund; the session can be refunded again.
    const again = (await call({ action: 'create_refund', checkout_session_id: cs.id, amount: 10_000 })).body;
    expect((await call({ action: 'simulate_refund', id: again.id, outcome: 'failed' })).body).toMatchObject({ status: 'failed' });
    const other = await paid(call, 5_000);
    const ok = (await call({ action: 'create_refund', checkout_session_id: other.id })).body;
    expect((await call({ action: 'simulate_refund', id: ok.id, outcome: 'failed' })).body.failure_code).toBe('expired_or_canceled_card');
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('replays a create_refund under the same key: one refund, one ledger entry, one event', async () => {
    const { m, call } = await shop();
    const cs = await paid(call, 50_000);
    const body = { action: 'create_refund', checkout_session_id: cs.id, amount: 10_000 };
    const [a, b] = await Promise.all([call(body, { idempotencyKey: 'same' }), call(body, { idempotencyKey: 'same' })]);
    const c = await call(body, { idempotencyKey: 'same' });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    expect(c.headers.get('x-service-idempotent-replayed')).toBe('true');
    const [counts] = await api().db.query<{ refunds: number; entries: number; events: number }>(
      `SELECT (SELECT count(*) FROM refunds WHERE merchant_id = $1)::int AS refunds,
              (SELECT count(*) FROM ledger_entries WHERE merchant_id = $1 AND kind = 'refund')::int AS entries,
              (SELECT count(*) FROM events WHERE merchant_id = $1 AND type LIKE 'refund.%')::int AS events`,
      [m.id],
    );
    expect(counts).toEqual({ refunds: 1, entries: 1, events: 1 });
    expect(await session(call, cs.id)).toMatchObject({ amount_refunded: 10_000 });
    const reused = await call({ ...body, amount: 10_001 }, { idempotencyKey: 'same' });
    expect([reused.status, reused.body.error.code]).toEqual([422, 'idempotency_key_reused']);
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('get_refund and list_refunds: newest first in cursor pages, filtered by session, status and time; another merchant sees none', async () => {
    const { call } = await shop();
    const one = await paid(call, 30_000);
    const two = await paid(call, 30_000);
    const r1 = (await call({ action: 'create_refund', checkout_session_id: one.id, amount: 10_000 })).body;
    const r2 = (await call({ action: 'create_refund', checkout_session_id: two.id, amount: 10_000 })).body;
    const r3 = (await call({ action: 'create_refund', checkout_session_id: one.id, amount: 5_000 })).body;
    await call({ action: 'simulate_refund', id: r1.id });
    const ids = async (filter: Record<string, unknown>) =>
      ((await call({ action: 'list_refunds', ...filter })).body.data as JsonAnswer[]).map((r) => r.id);
    expect(await ids({})).toEqual([r3.id, r2.id, r1.id]);
    expect(await ids({ checkout_session_id: one.id })).toEqual([r3.id, r1.id]);
    expect(await ids({ status: 'succeeded' })).toEqual([r1.id]);
    expect(await ids({ status: 'pending', checkout_session_id: one.id })).toEqual([r3.id]);
    expect(await ids({ created_gte: r2.created_at })).toEqual([r3.id, r2.id]);
    expect(await ids({ created_lt: r1.created_at })).toEqual([]);
    const page = (await call({ action: 'list_refunds', limit: 2 })).body;
    expect([page.has_more, page.data.length]).toEqual([true, 2]);
    const next = (await call({ action: 'list_refunds', limit: 2, starting_after: page.data[1].id })).body;
    expect([next.has_more, next.data.map((r: JsonAnswer) => r.id)]).toEqual([false, [r1.id]]);
    expect((await call({ action: 'get_refund', id: r2.id })).body).toEqual(r2);
    const badStatus = await call({ action: 'list_refunds', status: 'paid' });
    expect([badStatus.status, badStatus.body.error.param]).toEqual([400, 'status']);

    const stranger = await shop();
    const foreign = await stranger.call({ action: 'get_refund', id: r2.id });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    expect((await stranger.call({ action: 'list_refunds' })).body.data).toEqual([]);
    expect((await stranger.call({ action: 'simulate_refund', id: r2.id })).status).toBe(404);
  });

  it('a restricted key needs refunds:write to refund and refunds:read to read refunds', async () => {
    const { call } = await shop();
    const cs = await paid(call, 20_000);
    const key = async (permissions: string[]) =>
      (await call({ action: 'create_restricted_key', name: permissions.join(' '), permissions })).body.secret as string;
    const reader = await key(['refunds:read']);
    const writer = await key(['refunds:write']);
    const denied = await callApi(api().url, reader, { action: 'create_refund', checkout_session_id: cs.id });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'permission_denied']);
    expect((await session(call, cs.id)).amount_refunded).toBe(0);
    const made = await callApi(api().url, writer, { action: 'create_refund', checkout_session_id: cs.id, amount: 1_000 });
    expect(made.status).toBe(200);
    expect(made.body.created_by).toMatchObject({ type: 'restricted', key_name: 'refunds:write' });
    expect((await callApi(api().url, writer, { action: 'list_refunds' })).status).toBe(403);
    expect((await callApi(api().url, reader, { action: 'get_refund', id: made.body.id })).status).toBe(200);
  });

  describe('events', () => {
    const receiver = useWebhookDelivery(api, [0.2]);

    it('refund.created, refund.succeeded and refund.failed reach a subscribed receiver, signed, with the refund as the API answered it', async () => {
      const { call } = await shop();
      const ep = await call({
        action: 'create_webhook_endpoint',
        url: receiver().endpoint('/refunds'),
        enabled_events: ['refund.created', 'refund.succeeded', 'refund.failed'],
      });
      receiver().trust('/refunds', ep.body.secret);
      const good = await paid(call, 20_000);
      const bad = await paid(call, 20_000, REFUND_FAILING_TEST_CARD);
      const r1 = (await call({ action: 'create_refund', checkout_session_id: good.id })).body;
      const r2 = (await call({ action: 'create_refund', checkout_session_id: bad.id })).body;
      const s1 = (await call({ action: 'simulate_refund', id: r1.id })).body;
      const s2 = (await call({ action: 'simulate_refund', id: r2.id })).body;
      await expect.poll(() => receiver().at('/refunds').length, { timeout: 15_000, interval: 50 }).toBe(4);
      const got = receiver().at('/refunds');
      expect(got.every((r) => r.verified)).toBe(true);
      const byType = Object.fromEntries(got.map((r) => [`${r.event.type}:${r.event.data.object.id}`, r.event.data.object]));
      expect(byType).toEqual({
        [`refund.created:${r1.id}`]: r1,
        [`refund.created:${r2.id}`]: r2,
        [`refund.succeeded:${r1.id}`]: s1,
        [`refund.failed:${r2.id}`]: s2,
      });
      // The refund's events, newest first, by object_id.
      const events = (await call({ action: 'list_events', object_id: r2.id })).body.data;
      expect(events.map((e: JsonAnswer) => e.type)).toEqual(['refund.failed', 'refund.created']);
    });
  });
});

describe.runIf(postgresUrl)('a failed refund settling (PostgreSQL)', () => {
  const api = useTestApi(postgresBackend, { openingBalance: 0, settings: { settlementDelaySeconds: 3600 } });

  it('locks the session before the balance, the order create_refund takes, so the two cannot deadlock', async () => {
    const m = await createMerchant(api().db, { name: 'Lock order', openingBalance: 0 });
    const call: Call = (body, opts) => callApi(api().url, m.secretKey, body, opts);
    const s = (await call({ action: 'create_checkout_session', amount: 50_000 })).body;
    expect((await call({ action: 'simulate_checkout_payment', id: s.id, card_number: REFUND_FAILING_TEST_CARD })).status).toBe(200);
    const refund = (await call({ action: 'create_refund', checkout_session_id: s.id, amount: 10_000 })).body;

    // A holds the session, as a refund being created does before it takes the balance.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const sessionLocked = new Promise<void>((resolve) => (locked = resolve));
    const a = api().db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM checkout_sessions WHERE id = $1 FOR UPDATE', [s.id]);
      locked();
      await held;
    });
    await sessionLocked;
    // B settles the refund as failed: it must wait for the session without holding the balance.
    const b = api().db.transaction((tx) => settleRefund(tx, refund.id, 'failed'));
    const waiting = async () =>
      (
        await api().db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE refunds SET status = ''failed''%'`,
        )
      )[0]!.n;
    await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(1);
    const balanceFree = await api()
      .db.transaction((tx) => tx.query('SELECT 1 FROM balances WHERE merchant_id = $1 FOR UPDATE NOWAIT', [m.id]))
      .then(
        () => true,
        (error: { code?: string }) => error.code,
      );
    release();
    await a;
    expect(await b).toBe(true);
    expect(balanceFree).toBe(true);
    expect((await call({ action: 'get_refund', id: refund.id })).body.status).toBe('failed');
  });
});
