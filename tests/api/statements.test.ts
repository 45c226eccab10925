// The balance at a moment (get_balance as_of), statements (get_statement) and statement.ready, on PGlite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { BALANCE_TRANSACTION_TYPES } from '@/lib/contract';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { sendStatementsReady } from '@/lib/payments/statements/statement-ready';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';

describe.each(backends)('balance at a moment and statements ($name)', (backend) => {
  const api = useTestApi(backend, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 3600 } });
  const fresh = async (openingBalance = 1_000_000) => {
    const m = await createMerchant(api().db, { name: 'Books', openingBalance });
    return (body: Record<string, unknown>) => callApi(api().url, m.secretKey, body, { idempotencyKey: crypto.randomUUID() });
  };
  const pause = () => new Promise((r) => setTimeout(r, 15));

  it('answers available as it stood at each instant, 0 before the first entry, and echoes as_of', async () => {
    const call = await fresh();
    const before = new Date(Date.now() - 60_000).toISOString();
    await pause();
    const t0 = new Date().toISOString();
    await pause();
    const payout = (await call(withdrawal(100_000))).body;
    await pause();
    const t1 = new Date().toISOString();
    await pause();
    await call({ action: 'simulate_payout', id: payout.id, outcome: 'failed' });
    await call({ action: 'create_test_topup', amount: 7_000 });
    await pause();
    const t2 = new Date().toISOString();

    const at = async (as_of: string) => (await call({ action: 'get_balance', as_of })).body;
    expect(await at(before)).toMatchObject({ object: 'balance', available: 0, as_of: before });
    expect((await at(t0)).available).toBe(1_000_000);
    expect((await at(t1)).available).toBe(900_000);
    expect((await at(t2)).available).toBe(1_007_000);
    expect((await call({ action: 'get_balance' })).body.available).toBe(1_007_000);
    expect((await call({ action: 'get_balance' })).body).not.toHaveProperty('as_of');
    // An offset other than Z names the same instant; the echo is in UTC.
    const jakarta = new Date(Date.parse(t1) + 7 * 3_600_000).toISOString().replace('Z', '+07:00');
    expect(await at(jakarta)).toMatchObject({ available: 900_000, as_of: t1 });
  });

  it('times entries in the order the balance changed, under concurrent writes: the balance at each entry is the sum up to it', async () => {
    const m = await createMerchant(api().db, { name: 'Busy', openingBalance: 5_000_000 });
    const call = (body: Record<string, unknown>) => callApi(api().url, m.secretKey, body, { idempotencyKey: crypto.randomUUID() });
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 2 ? call({ action: 'create_test_topup', amount: 1_000 + i }) : call(withdrawal(10_000 + i)),
      ),
    );
    const entries = await api().db.query<{ created_at: Date; balance_after: number; sum: string }>(
      `SELECT created_at, balance_after, sum(amount) OVER (ORDER BY id)::text AS sum FROM ledger_entries WHERE merchant_id = $1 ORDER BY id`,
      [m.id],
    );
    expect(entries.length).toBe(25);
    for (let i = 1; i < entries.length; i++) expect(new Date(entries[i]!.created_at) >= new Date(entries[i - 1]!.created_at)).toBe(true);
    for (const e of entries) expect(Number(e.balance_after)).toBe(Number(e.sum));
    const last = entries.at(-1)!;
    const res = await call({ action: 'get_balance', as_of: new Date(last.created_at).toISOString() });
    expect(res.body.available).toBe(Number(last.balance_after));
  });

  it.each([
    [{ as_of: new Date(Date.now() + 3_600_000).toISOString() }, 'as_of'],
    [{ as_of: '2026-10-31' }, 'as_of'],
    [{ as_of: 42 }, 'as_of'],
  ])('get_balance refuses %j with a 400 naming %s', async (fields, param) => {
    const res = await api().call({ action: 'get_balance', ...fields });
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 'invalid_request', param]);
  });

  it.each([
    [{}, 'month'],
    [{ month: '2026-13' }, 'month'],
    [{ month: '2026-1' }, 'month'],
    [{ month: '2026-10', from: '2026-10-01T00:00:00Z' }, 'from'],
    [{ month: '2026-10', to: '2026-10-01T00:00:00Z' }, 'to'],
    [{ from: '2026-10-01T00:00:00Z' }, 'to'],
    [{ to: '2026-10-01T00:00:00Z' }, 'from'],
    [{ from: '2026-10-01', to: '2026-10-02T00:00:00Z' }, 'from'],
    [{ from: '2026-10-02T00:00:00Z', to: '2026-10-01T00:00:00Z' }, 'to'],
    [{ from: '2026-10-01T00:00:00Z', to: '2026-10-01T00:00:00Z' }, 'to'],
    [{ from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:01Z' }, 'to'],
  ])('get_statement refuses %j with a 400 naming %s', async (fields, param) => {
    const res = await api().call({ action: 'get_statement', ...fields });
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 'invalid_request', param]);
  });

  it('reads a month in the merchant zone: Jakarta by default, Berlin across its daylight-saving change', async () => {
    const call = await fresh();
    const jakarta = (await call({ action: 'get_statement', month: '2026-10' })).body;
    expect(jakarta).toMatchObject({
      object: 'statement',
      time_zone: 'Asia/Jakarta',
      from: '2026-09-30T17:00:00.000Z',
      to: '2026-10-31T17:00:00.000Z',
    });
    expect((await call({ action: 'update_account_settings', time_zone: 'Europe/Berlin' })).status).toBe(200);
    const berlin = (await call({ action: 'get_statement', month: '2026-10' })).body;
    // Berlin is UTC+2 on 1 October and UTC+1 on 1 November (summer time ends on 25 October).
    expect(berlin).toMatchObject({ time_zone: 'Europe/Berlin', from: '2026-09-30T22:00:00.000Z', to: '2026-10-31T23:00:00.000Z' });
    // A 366-day period is allowed (a leap year).
    expect((await call({ action: 'get_statement', from: '2027-01-01T00:00:00Z', to: '2028-01-02T00:00:00Z' })).status).toBe(200);
  });

  it('totals every balance-transaction type, zeros included, and closes at opening plus the totals', async () => {
    const call = await fresh();
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const paid = (await call(withdrawal(100_000))).body;
    await call({ action: 'simulate_payout', id: paid.id, outcome: 'paid' });
    const failed = (await call(withdrawal(50_000))).body;
    await call({ action: 'simulate_payout', id: failed.id, outcome: 'failed' });
    const session = (await call({ action: 'create_checkout_session', amount: 150_000 })).body;
    await call({ action: 'simulate_checkout_payment', id: session.id });
    await call({ action: 'create_test_topup', amount: 7_000 });
    await pause();
    const to = new Date(Date.now() + 1).toISOString();

    const s = (await call({ action: 'get_statement', from, to })).body;
    expect(Object.keys(s.totals).sort()).toEqual([...BALANCE_TRANSACTION_TYPES].sort());
    expect(s).toMatchObject({
      object: 'statement',
      currency: 'IDR',
      time_zone: 'Asia/Jakarta',
      from: new Date(from).toISOString(),
      to,
      opening_balance: 0,
      closing_balance: 1_057_000,
      totals: {
        opening_balance: { amount: 1_000_000, count: 1 },
        payout: { amount: -150_000, count: 2 },
        payout_reversal: { amount: 50_000, count: 1 },
        checkout_payment: { amount: 150_000, count: 1 },
        topup: { amount: 7_000, count: 1 },
        refund: { amount: 0, count: 0 },
        adjustment: { amount: 0, count: 0 },
      },
    });
    const sum = Object.values(s.totals as Record<string, { amount: number }>).reduce((a, t) => a + t.amount, 0);
    expect(s.closing_balance).toBe(s.opening_balance + sum);
    expect((await call({ action: 'get_balance' })).body.available).toBe(s.closing_balance);

    // The statement's lines: list_balance_transactions over the same instants, each naming its source object.
    const lines = (await call({ action: 'list_balance_transactions', created_gte: s.from, created_lt: s.to, limit: 100 })).body.data;
    expect(lines).toHaveLength(6);
    expect(lines.reduce((a: number, l: { amount: number }) => a + l.amount, 0)).toBe(sum);
    expect(lines.map((l: { source: string }) => l.source)).toEqual(expect.arrayContaining([paid.id, failed.id, session.id]));
    // A payout's lines carry its bank reference once it was paid (to match the bank statement); the others none.
    const reference = (await call({ action: 'get_payout', id: paid.id })).body.bank_reference;
    expect(reference).toEqual(expect.any(String));
    const bySource = (source: string) =>
      lines.filter((l: { source: string }) => l.source === source).map((l: { bank_reference: string | null }) => l.bank_reference);
    expect([bySource(paid.id), bySource(failed.id), bySource(session.id)]).toEqual([[reference], [null, null], [null]]);

    // A later period holds none of it and opens where this one closed.
    const later = (await call({ action: 'get_statement', from: to, to: new Date(Date.now() + 86_400_000).toISOString() })).body;
    expect([later.opening_balance, later.closing_balance, later.totals.payout]).toEqual([1_057_000, 1_057_000, { amount: 0, count: 0 }]);
  });

  it('sends statement.ready once per merchant and month after the month ends in its zone, however many instances run it', async () => {
    const m = await createMerchant(api().db, { name: 'Month end', openingBalance: 500_000 });
    const call = (body: Record<string, unknown>) => callApi(api().url, m.secretKey, body);
    await call({ action: 'update_account_settings', time_zone: 'Asia/Jakarta' });
    const statementEvents = async () => (await call({ action: 'list_events', type: 'statement.ready' })).body.data;
    // Before the month ends in Jakarta: nothing for this merchant.
    const now = Date.now();
    const jakartaNow = new Date(now + 7 * 3_600_000);
    const month = jakartaNow.toISOString().slice(0, 7);
    const monthEnd = Date.UTC(jakartaNow.getUTCFullYear(), jakartaNow.getUTCMonth() + 1, 1) - 7 * 3_600_000;
    await sendStatementsReady(api().db, monthEnd - 1);
    // Nor in the minute after it ends (a write that began before the end may still be committing).
    await sendStatementsReady(api().db, monthEnd + 59_000);
    expect(await statementEvents()).toEqual([]);
    // The clock passes the end of the month: three instances at once, then again.
    await Promise.all([0, 1, 2].map(() => sendStatementsReady(api().db, monthEnd + 60_000)));
    await sendStatementsReady(api().db, monthEnd + 3_600_000);
    const events = await statementEvents();
    expect(events).toHaveLength(1);
    const statement = (await call({ action: 'get_statement', month })).body;
    expect(events[0].data.object).toEqual(statement);
    expect(statement).toMatchObject({ opening_balance: 0, closing_balance: 500_000, to: new Date(monthEnd).toISOString() });
  });
});
