// list_payouts' filters (created_gte, created_lt, account_last4) and summarize_payouts, the filter's count and total.
import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { apiTargets } from '../helpers/api-targets';

const DAY = 86_400_000;

describe.each(apiTargets)('payout filters and summarize_payouts ($name)', (target) => {
  const api = useTestApi(target, { openingBalance: 5_000_000, settings: { settlementDelaySeconds: 3600 } });

  /** Five payouts: two on account …1111 (one failed), three on …2222, two of them backdated 10 and 3 days. */
  async function seed() {
    const make = async (amount: number, account: string) => (await api().call(withdrawal(amount, { account_number: account }))).body;
    const a = await make(10_000, '9000001111');
    const b = await make(20_000, '9000002222');
    const c = await make(30_000, '8000002222');
    const d = await make(40_000, '7000001111');
    const e = await make(55_555, '6000002222');
    await api().call({ action: 'simulate_payout', id: d.id, outcome: 'failed', failure_code: 'invalid_account' });
    // The API never backdates, so the test moves two rows in the database.
    await api().db.query(`UPDATE payouts SET created_at = now() - interval '10 days' WHERE id = $1`, [b.id]);
    await api().db.query(`UPDATE payouts SET created_at = now() - interval '3 days' WHERE id = $1`, [c.id]);
    return { a, b, c, d, e };
  }
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id);

  it('filters by the last four digits, a date range and status, and summarizes the same rows exactly', async () => {
    const { a, b, c, d, e } = await seed();
    const now = Date.now();
    const list = (f: Record<string, unknown>) => api().call({ action: 'list_payouts', limit: 100, ...f });
    const sum = async (f: Record<string, unknown>) => {
      const res = await api().call({ action: 'summarize_payouts', ...f });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };

    expect(ids(await list({ account_last4: '1111' }))).toEqual([d.id, a.id]);
    expect(ids(await list({ account_last4: '2222' }))).toEqual([e.id, c.id, b.id]);
    expect(ids(await list({ account_last4: '0000' }))).toEqual([]);
    const lastWeek = { created_gte: new Date(now - 7 * DAY).toISOString(), created_lt: new Date(now + 60_000).toISOString() };
    expect(ids(await list(lastWeek))).toEqual([e.id, d.id, c.id, a.id]);
    expect(ids(await list({ created_lt: new Date(now - 5 * DAY).toISOString() }))).toEqual([b.id]);
    expect(ids(await list({ ...lastWeek, account_last4: '2222', status: 'pending' }))).toEqual([e.id, c.id]);
    expect(ids(await list({ status: 'failed' }))).toEqual([d.id]);

    expect(await sum({})).toEqual({ object: 'payout_summary', count: 5, total_amount: 155_555, currency: 'IDR' });
    expect(await sum({ account_last4: '2222' })).toEqual({ object: 'payout_summary', count: 3, total_amount: 105_555, currency: 'IDR' });
    expect(await sum({ ...lastWeek, account_last4: '2222', status: 'pending' })).toMatchObject({ count: 2, total_amount: 85_555 });
    expect(await sum({ status: 'failed' })).toMatchObject({ count: 1, total_amount: 40_000 });
    expect(await sum({ created_lt: new Date(now - 5 * DAY).toISOString() })).toMatchObject({ count: 1, total_amount: 20_000 });
    expect(await sum({ account_last4: '0000' })).toEqual({ object: 'payout_summary', count: 0, total_amount: 0, currency: 'IDR' });

    // Pages of 1 under a filter walk exactly the filter's rows.
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await list({ limit: 1, account_last4: '2222', ...(after ? { starting_after: after } : {}) });
      seen.push(...ids(page));
      if (!page.body.has_more) break;
      after = page.body.data.at(-1)!.id;
    }
    expect(seen).toEqual([e.id, c.id, b.id]);
  });

  it("never counts another merchant's payouts", async () => {
    const before = (await api().call({ action: 'summarize_payouts', account_last4: '1111' })).body;
    const other = await createMerchant(api().db, { name: 'Other', openingBalance: 1_000_000 });
    expect((await callApi(api().url, other.secretKey, withdrawal(77_000, { account_number: '1231231111' }))).status).toBe(200);
    expect((await api().call({ action: 'summarize_payouts', account_last4: '1111' })).body).toEqual(before);
    expect((await callApi(api().url, other.secretKey, { action: 'summarize_payouts', account_last4: '1111' })).body).toMatchObject({
      count: 1,
      total_amount: 77_000,
    });
  });

  it('refuses bad filter values with a 400 naming the field', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['list_payouts', { account_last4: '123' }, 'account_last4'],
      ['list_payouts', { account_last4: '12a4' }, 'account_last4'],
      ['list_payouts', { account_last4: 1234 }, 'account_last4'],
      ['list_payouts', { created_gte: 'yesterday' }, 'created_gte'],
      ['list_payouts', { created_lt: '2026-01-01' }, 'created_lt'],
      ['summarize_payouts', { account_last4: '12345' }, 'account_last4'],
      ['summarize_payouts', { created_gte: '2026-13-01T00:00:00Z' }, 'created_gte'],
      ['summarize_payouts', { created_lt: 5 }, 'created_lt'],
      ['summarize_payouts', { status: 'sent' }, 'status'],
      ['summarize_payouts', { limit: 5 }, 'limit'],
    ];
    for (const [action, body, param] of cases) {
      const res = await api().call({ action, ...body });
      expect([res.status, res.body.error?.code, res.body.error?.param], `${action} ${JSON.stringify(body)}`).toEqual([
        400,
        'invalid_request',
        param,
      ]);
    }
  });
});
