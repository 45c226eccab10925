// Bank references and returned payouts (docs/api.md, "Returned payouts"), over real HTTP on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { returnDuePayouts } from '@/lib/payments/payouts/payout-returns';
import { callApi, useTestApi, withdrawal, type ApiResult } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { isExact, refundCheck } from '../../testing/ledger';
import type { JsonAnswer } from '../helpers/json-answer';

type Call = (body: Record<string, unknown>, opts?: { idempotencyKey?: string }) => Promise<ApiResult<JsonAnswer>>;

describe.each(backends)('returned payouts ($name)', (backend) => {
  // An hour's settlement delay: payouts settle only when a test says so.
  const api = useTestApi(backend, { openingBalance: 0, settings: { settlementDelaySeconds: 3600 } });

  async function shop(opening = 1_000_000) {
    const m = await createMerchant(api().db, { name: 'Returns', openingBalance: opening });
    const call: Call = (body, opts) => callApi(api().url, m.secretKey, body, opts);
    return { m, call };
  }
  async function paidPayout(call: Call, amount = 100_000, account = '1234567890') {
    const po = (await call(withdrawal(amount, { account_number: account }))).body;
    const res = await call({ action: 'simulate_payout', id: po.id, outcome: 'paid' });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }
  const balance = async (call: Call) => (await call({ action: 'get_balance' })).body;

  it('a paid payout carries its bank reference and paid_at; a return sends the amount back once, with payout.returned', async () => {
    const { m, call } = await shop();
    const paid = await paidPayout(call);
    expect(paid).toMatchObject({ status: 'paid', returned_at: null, failure_code: null });
    expect(paid.bank_reference).toMatch(/^TRF[0-9]{6}[0-9]{10,}$/);
    expect(paid.paid_at).toBe(paid.settled_at);
    expect(await balance(call)).toMatchObject({ available: 900_000, pending_payouts: 0 });

    const res = await call({ action: 'simulate_payout', id: paid.id, outcome: 'returned' }, { idempotencyKey: 'ret-1' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: paid.id,
      status: 'returned',
      failure_code: 'account_closed',
      failure_message: 'The receiving bank returned the transfer: the account is closed.',
      bank_reference: paid.bank_reference,
      paid_at: paid.paid_at,
      settled_at: paid.settled_at,
    });
    expect(Date.parse(res.body.returned_at)).toBeGreaterThanOrEqual(Date.parse(paid.paid_at));
    expect(await call({ action: 'get_payout', id: paid.id }).then((r) => r.body)).toEqual(res.body);
    expect(await balance(call)).toMatchObject({ available: 1_000_000, pending_payouts: 0 });

    // A replay answers the same and changes nothing.
    const replay = await call({ action: 'simulate_payout', id: paid.id, outcome: 'returned' }, { idempotencyKey: 'ret-1' });
    expect(replay.body).toEqual(res.body);
    expect(await balance(call)).toMatchObject({ available: 1_000_000 });

    const returns = (await call({ action: 'list_balance_transactions', type: 'payout_return' })).body.data;
    expect(returns.map((t: JsonAnswer) => [t.amount, t.source, t.balance_after, t.type])).toEqual([
      [100_000, paid.id, 1_000_000, 'payout_return'],
    ]);
    // The statement's lines: both entries of the payout carry its bank reference; the opening balance none.
    const lines = (await call({ action: 'list_balance_transactions' })).body.data;
    expect(lines.map((t: JsonAnswer) => [t.type, t.source, t.bank_reference])).toEqual([
      ['payout_return', paid.id, paid.bank_reference],
      ['payout', paid.id, paid.bank_reference],
      ['opening_balance', m.id, null],
    ]);

    // payout.paid is the payout as it was when paid; payout.returned as it is now.
    const events = (await call({ action: 'list_events', object_id: paid.id })).body.data;
    expect(events.map((e: JsonAnswer) => e.type)).toEqual(['payout.returned', 'payout.paid', 'payout.created']);
    expect(events[0].data.object).toEqual(res.body);
    expect(events[1].data.object).toEqual(paid);

    // list_payouts and summarize_payouts filter returned payouts; the per-day figures moved it from paid to returned.
    const listed = (await call({ action: 'list_payouts', status: 'returned' })).body.data;
    expect(listed.map((p: JsonAnswer) => p.id)).toEqual([paid.id]);
    expect((await call({ action: 'summarize_payouts', status: 'returned' })).body).toMatchObject({ count: 1, total_amount: 100_000 });
    expect((await call({ action: 'summarize_payouts', status: 'paid' })).body).toMatchObject({ count: 0, total_amount: 0 });
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('returns only a paid payout: 409 payout_not_paid otherwise; a failure_code that is not a return reason is a 400 naming it', async () => {
    const { call } = await shop();
    const pending = (await call(withdrawal(50_000))).body;
    const notPaid = await call({ action: 'simulate_payout', id: pending.id, outcome: 'returned' });
    expect([notPaid.status, notPaid.body.error.code, notPaid.body.error.param]).toEqual([409, 'payout_not_paid', 'id']);

    const paid = await paidPayout(call);
    const wrongCode = await call({ action: 'simulate_payout', id: paid.id, outcome: 'returned', failure_code: 'invalid_account' });
    expect([wrongCode.status, wrongCode.body.error.code, wrongCode.body.error.param]).toEqual([400, 'invalid_request', 'failure_code']);
    const unknown = await call({ action: 'simulate_payout', id: paid.id, outcome: 'returned', failure_code: 'nope' });
    expect([unknown.status, unknown.body.error.param]).toEqual([400, 'failure_code']);

    const frozen = await call({ action: 'simulate_payout', id: paid.id, outcome: 'returned', failure_code: 'account_frozen' });
    expect(frozen.body).toMatchObject({ status: 'returned', failure_code: 'account_frozen' });
    const again = await call({ action: 'simulate_payout', id: paid.id, outcome: 'returned' });
    expect([again.status, again.body.error.code]).toEqual([409, 'payout_not_paid']);
    const failed = await call({ action: 'simulate_payout', id: pending.id, outcome: 'failed' });
    expect((await call({ action: 'simulate_payout', id: failed.body.id, outcome: 'returned' })).status).toBe(409);
  });

  it('concurrent returns of one payout: one 200, one payout_return entry, one payout.returned event', async () => {
    const { m, call } = await shop();
    const paid = await paidPayout(call, 200_000);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call({ action: 'simulate_payout', id: paid.id, outcome: 'returned' }, { idempotencyKey: `c-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'payout_not_paid')).toBe(true);
    const [counts] = await api().db.query<{ entries: number; events: number }>(
      `SELECT (SELECT count(*) FROM ledger_entries WHERE kind = 'payout_return' AND reference_id = $1)::int AS entries,
              (SELECT count(*) FROM events WHERE type = 'payout.returned' AND object_id = $1)::int AS events`,
      [paid.id],
    );
    expect(counts).toEqual({ entries: 1, events: 1 });
    expect(await balance(call)).toMatchObject({ available: 1_000_000 });
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
    // The second guard: the database itself refuses a second return entry of the payout.
    await expect(
      api().db.query(
        `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id) VALUES ($1, 200000, 1200000, 'payout_return', $2)`,
        [m.id, paid.id],
      ),
    ).rejects.toThrow(/ledger_entries_one_per_return/);
  });

  it('bank references are unique per payout', async () => {
    const { call } = await shop(5_000_000);
    const refs = [];
    for (let i = 0; i < 12; i++) refs.push((await paidPayout(call, 10_000)).bank_reference);
    expect(new Set(refs).size).toBe(12);
  });

  it('test account 4000000004 is paid after the settlement delay, then returned (account_closed) one settlement delay later', async () => {
    const { m, call } = await shop();
    const po = (await call(withdrawal(150_000, { account_number: '4000000004' }))).body;
    const other = (await call(withdrawal(20_000))).body;
    // Due now, as the settlement job sees it an hour on (made an hour ago, with the hour's delay).
    await api().db.query(`UPDATE payouts SET settle_after = now(), created_at = now() - interval '1 hour' WHERE id = ANY($1)`, [
      [po.id, other.id],
    ]);
    await settleDuePayouts(api().db);
    const paid = (await call({ action: 'get_payout', id: po.id })).body;
    expect(paid).toMatchObject({ status: 'paid', bank_reference: expect.stringMatching(/^TRF/) });
    const [due] = await api().db.query<{ wait: number; other: Date | null }>(
      `SELECT EXTRACT(EPOCH FROM return_after - settled_at)::int AS wait,
              (SELECT return_after FROM payouts WHERE id = $2) AS other FROM payouts WHERE id = $1`,
      [po.id, other.id],
    );
    expect(due).toEqual({ wait: 3600, other: null });
    // Not yet due: nothing returns.
    expect(await returnDuePayouts(api().db)).toBe(0);
    await api().db.query(`UPDATE payouts SET return_after = now() WHERE id = $1`, [po.id]);
    expect(await returnDuePayouts(api().db)).toBe(1);
    expect(await returnDuePayouts(api().db)).toBe(0);
    expect((await call({ action: 'get_payout', id: po.id })).body).toMatchObject({
      status: 'returned',
      failure_code: 'account_closed',
      bank_reference: paid.bank_reference,
    });
    expect((await call({ action: 'get_payout', id: other.id })).body.status).toBe('paid');
    expect(await balance(call)).toMatchObject({ available: 1_000_000 - 20_000 });
    expect(isExact(await refundCheck(api().db, m.id))).toBe(true);
  });

  it('a payout refused with insufficient_funds says how much is missing', async () => {
    const { call } = await shop(30_000);
    const alone = await call(withdrawal(50_000));
    expect([alone.status, alone.body.error.code]).toEqual([422, 'insufficient_funds']);
    expect(alone.body.error.message).toBe('The available balance 30000 is lower than the amount 50000: 20000 is missing.');
    const batch = await call({
      action: 'create_payout_batch',
      payouts: [
        { amount: 20_000, bank_code: 'BCA', account_number: '1234567890' },
        { amount: 25_000, bank_code: 'BNI', account_number: '1234567891' },
      ],
    });
    expect([batch.status, batch.body.error.code]).toEqual([422, 'insufficient_funds']);
    expect(batch.body.error.message).toContain('15000 is missing');
  });
});
