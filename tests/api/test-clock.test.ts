// The test clock of a sandbox (docs/testing-your-integration.md, "The test clock"), on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { returnDuePayouts } from '@/lib/payments/payouts/payout-returns';
import { expireUnapprovedPayouts } from '@/lib/payments/payouts/payout-approvals';
import { purgeExpiredIdempotencyKeys } from '@/lib/payments/pipeline/idempotency';
import { expireCheckoutSessions } from '@/lib/payments/checkout/checkout-expiry';
import { payCheckoutSession, SUCCEEDING_TEST_CARD } from '@/lib/payments/checkout/checkout-payment';
import { sendStatementsReady } from '@/lib/payments/statements/statement-ready';
import { callApi, useTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';

const DAY = 86_400;
const as = (api: TestApi, key: string) => (body: Record<string, unknown>, idempotencyKey?: string) =>
  callApi(api.url, key, body, { idempotencyKey });

describe.each(backends)('test clock ($name)', (backend) => {
  // Settlement after 3 days, returns one delay later: nothing here can happen by the wall clock within the test.
  const api = useTestApi(backend, { settings: { settlementDelaySeconds: 3 * DAY } });
  const clocked = async (fields: Record<string, unknown> = {}) => {
    const res = await as(api(), api().merchant.secretKey)({ action: 'create_sandbox', test_clock: true, ...fields });
    expect(res.status, res.text).toBe(200);
    return { sandbox: res.body, call: as(api(), res.body.secret_key as string) };
  };

  it('starts frozen at the real time, stamps what the sandbox makes with it, and never goes back', async () => {
    const before = Date.now();
    const { sandbox, call } = await clocked();
    const start = Date.parse(sandbox.test_clock);
    expect(start).toBeGreaterThanOrEqual(before - 1000);
    await new Promise((r) => setTimeout(r, 30));
    expect((await call({ action: 'get_test_clock' })).body).toEqual({
      object: 'test_clock',
      sandbox_id: sandbox.id,
      now: sandbox.test_clock,
    });
    const payout = (await call(withdrawal(10_000))).body;
    expect(payout.created_at).toBe(sandbox.test_clock);
    const moved = await call({ action: 'advance_test_clock', seconds: 3600 });
    expect(moved.body.now).toBe(new Date(start + 3_600_000).toISOString());
    expect((await call(withdrawal(10_000))).body.created_at).toBe(moved.body.now);
    for (const [body, param] of [
      [{ to: sandbox.test_clock }, 'to'],
      [{ seconds: -1 }, 'seconds'],
      [{ seconds: 31 * DAY + 1 }, 'seconds'],
      [{ seconds: 1, to: moved.body.now }, 'to'],
      [{}, 'seconds'],
    ] as const) {
      const res = await call({ action: 'advance_test_clock', ...body });
      expect([res.status, res.body.error.param], JSON.stringify(body)).toEqual([400, param]);
    }
    // The parent has no clock; the wall-clock jobs leave the sandbox's payouts alone.
    expect((await as(api(), api().merchant.secretKey)({ action: 'get_test_clock' })).status).toBe(400);
  });

  it('pays, then returns, a payout to 4000000004 in seconds, with its events, in time order', async () => {
    const { call } = await clocked();
    const payout = (await call(withdrawal(50_000, { account_number: '4000000004' }))).body;
    const failing = (await call(withdrawal(20_000, { account_number: '4000000001' }))).body;
    // The wall-clock jobs skip a clocked sandbox, however long overdue its rows are on its clock.
    await call({ action: 'advance_test_clock', seconds: 3 * DAY - 1 });
    await settleDuePayouts(api().db);
    expect((await call({ action: 'get_payout', id: payout.id })).body.status).toBe('pending');
    const paidAt = (await call({ action: 'advance_test_clock', seconds: 1 })).body.now;
    const paid = (await call({ action: 'get_payout', id: payout.id })).body;
    expect([paid.status, paid.paid_at, paid.settled_at]).toEqual(['paid', paidAt, paidAt]);
    expect((await call({ action: 'get_payout', id: failing.id })).body.status).toBe('failed');
    // Six more days in one call: the return (three days after payment) is stamped with its own time, not the call's end.
    await call({ action: 'advance_test_clock', seconds: 6 * DAY });
    await returnDuePayouts(api().db);
    const returned = (await call({ action: 'get_payout', id: payout.id })).body;
    expect([returned.status, returned.failure_code]).toEqual(['returned', 'account_closed']);
    expect(returned.returned_at).toBe(new Date(Date.parse(paidAt) + 3 * DAY * 1000).toISOString());
    const events = (await call({ action: 'list_events', object_id: payout.id })).body.data.reverse();
    expect(events.map((e: { type: string }) => e.type)).toEqual(['payout.created', 'payout.paid', 'payout.returned']);
    expect(events.map((e: { created: string; created_at: string }) => e.created_at ?? e.created)[2]).toBe(returned.returned_at);
    expect((await call({ action: 'get_balance' })).body.available).toBe(10_000_000);
  });

  it('treats an idempotency key older than 24 hours on the clock as new', async () => {
    const { call } = await clocked();
    const first = await call(withdrawal(10_000), 'same-key');
    // The wall-clock purge leaves a clocked sandbox's keys to its clock, however old they are by the wall clock.
    await purgeExpiredIdempotencyKeys(api().db, 0);
    await call({ action: 'advance_test_clock', seconds: DAY - 1 });
    const replay = await call(withdrawal(10_000), 'same-key');
    expect(replay.headers.get('x-service-idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    await call({ action: 'advance_test_clock', seconds: 1 });
    const fresh = await call(withdrawal(10_000), 'same-key');
    expect(fresh.headers.get('x-service-idempotent-replayed')).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  it('expires a payout awaiting approval at its expiry on the clock, and ends a rolled key at its grace', async () => {
    const { call, sandbox } = await clocked();
    await call({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' });
    const waiting = (await call(withdrawal(30_000))).body;
    expect(waiting.status).toBe('awaiting_approval');
    await call({ action: 'advance_test_clock', seconds: 7 * DAY - 1 });
    await expireUnapprovedPayouts(api().db);
    expect((await call({ action: 'get_payout', id: waiting.id })).body.status).toBe('awaiting_approval');
    await call({ action: 'advance_test_clock', seconds: 1 });
    expect((await call({ action: 'get_payout', id: waiting.id })).body.status).toBe('expired');
    expect((await call({ action: 'get_balance' })).body).toMatchObject({ available: 10_000_000, awaiting_approval: 0 });

    const rolled = await call({ action: 'roll_secret_key', expires_in_seconds: 3600 });
    const next = as(api(), rolled.body.secret);
    await next({ action: 'advance_test_clock', seconds: 3599 });
    expect((await call({ action: 'get_balance' })).status).toBe(200);
    await next({ action: 'advance_test_clock', seconds: 1 });
    expect((await call({ action: 'get_balance' })).status).toBe(401);
    expect((await next({ action: 'get_test_clock' })).body.sandbox_id).toBe(sandbox.id);
  });

  it("makes a month's statement in seconds, and get_balance as_of reads the ledger at clock times", async () => {
    const { call, sandbox } = await clocked({ balance: 1_000_000 });
    const start = Date.parse(sandbox.test_clock);
    for (let day = 0; day < 30; day++) {
      await call({ action: 'create_test_topup', amount: 1_000 });
      await call({ action: 'advance_test_clock', seconds: DAY });
    }
    const clockNow = Date.parse((await call({ action: 'get_test_clock' })).body.now);
    expect(clockNow - start).toBe(30 * DAY * 1000);
    const statement = await call({ action: 'get_statement', from: new Date(start).toISOString(), to: new Date(clockNow).toISOString() });
    expect(statement.status, statement.text).toBe(200);
    expect(statement.body.totals.topup).toEqual({ amount: 30_000, count: 30 });
    // The opening entry is stamped at the clock's start: a statement from there has it in its period.
    expect([statement.body.opening_balance, statement.body.totals.opening_balance]).toEqual([0, { amount: 1_000_000, count: 1 }]);
    expect(statement.body.closing_balance).toBe(1_030_000);
    const midway = await call({ action: 'get_balance', as_of: new Date(start + 10 * DAY * 1000 - 1).toISOString() });
    expect(midway.body.available).toBe(1_010_000);
    // An instant past the wall clock but not past the sandbox's clock is not in the future.
    expect((await call({ action: 'get_balance', as_of: new Date(clockNow).toISOString() })).status).toBe(200);
    expect((await call({ action: 'get_balance', as_of: new Date(clockNow + 1000).toISOString() })).status).toBe(400);
    // The last days end at the clock's today: thirty top-ups of 1,000, one a day, the last seven in the summary.
    const summary = (await call({ action: 'summarize_balance', days: 7 })).body;
    expect(summary.days.at(-1).closing_balance).toBe(1_030_000);
    expect(summary.days.reduce((sum: number, d: { money_in: number }) => sum + d.money_in, 0)).toBeGreaterThanOrEqual(6_000);
  });

  it('expires checkout sessions on the clock, pays the hosted page at its time, and logs requests at it', async () => {
    const { call, sandbox } = await clocked();
    const start = sandbox.test_clock as string;
    const short = (await call({ action: 'create_checkout_session', amount: 10_000, expires_in: 1800 })).body;
    const paying = (await call({ action: 'create_checkout_session', amount: 25_000, expires_in: 7200 })).body;
    expect([short.created_at, short.expires_at]).toEqual([start, new Date(Date.parse(start) + 1_800_000).toISOString()]);
    // The wall-clock job leaves it open, however long past its expiry by the wall clock.
    await call({ action: 'advance_test_clock', seconds: 600 });
    expect(await payCheckoutSession(api().db, paying.id, SUCCEEDING_TEST_CARD, api().url)).toMatchObject({ ok: true });
    const paid = (await call({ action: 'get_checkout_session', id: paying.id })).body;
    expect([paid.status, paid.completed_at]).toEqual(['complete', new Date(Date.parse(start) + 600_000).toISOString()]);
    await call({ action: 'advance_test_clock', seconds: 1199 });
    await expireCheckoutSessions(api().db, api().url);
    expect((await call({ action: 'get_checkout_session', id: short.id })).body.status).toBe('open');
    await call({ action: 'advance_test_clock', seconds: 3600 });
    expect((await call({ action: 'get_checkout_session', id: short.id })).body.status).toBe('expired');
    const expired = (await call({ action: 'list_events', type: 'checkout_session.expired' })).body.data;
    expect(expired.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([short.id]);
    expect(expired[0].created_at ?? expired[0].created).toBe(short.expires_at);
    // The request log of a clocked sandbox is on its clock too: the last advance was sent at start + 1,799 s.
    await api().flushRequestLog?.();
    const log = (await call({ action: 'list_requests', request_action: 'advance_test_clock' })).body.data;
    expect(log.map((r: { created_at: string }) => Date.parse(r.created_at) - Date.parse(start))).toEqual([1_799_000, 600_000, 0]);
  });

  it("sends statement.ready when the clock crosses the end of the sandbox's month, and the wall-clock job leaves it out", async () => {
    const { call, sandbox } = await clocked();
    await call({ action: 'update_account_settings', time_zone: 'UTC' });
    await call({ action: 'create_test_topup', amount: 5_000 });
    const start = new Date(sandbox.test_clock as string);
    const monthStart = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1);
    const nextMonth = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    await call({ action: 'advance_test_clock', to: new Date(nextMonth - 1000).toISOString() });
    expect((await call({ action: 'list_events', type: 'statement.ready' })).body.data).toEqual([]);
    await call({ action: 'advance_test_clock', seconds: 2 * DAY });
    const ready = (await call({ action: 'list_events', type: 'statement.ready' })).body.data;
    expect(ready).toHaveLength(1);
    const statement = ready[0].data.object;
    expect([statement.from, statement.to]).toEqual([new Date(monthStart).toISOString(), new Date(nextMonth).toISOString()]);
    expect(statement.totals.topup).toEqual({ amount: 5_000, count: 1 });
    // Sent at the month's end on the clock, not at the end of the call.
    expect(ready[0].created_at ?? ready[0].created).toBe(new Date(nextMonth).toISOString());
    // Two months later by the wall clock, the wall-clock job still sends the sandbox nothing: its months end on its clock.
    await sendStatementsReady(api().db, nextMonth + 62 * DAY * 1000);
    expect((await call({ action: 'list_events', type: 'statement.ready' })).body.data).toHaveLength(1);
  });
});
