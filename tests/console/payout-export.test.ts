// The payouts page's view (URL query to API filter) and its CSV export, paged through the real API.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutFilterOf, payoutViewSearch, readPayoutView } from '@/console/browser/payout-view';
import { payoutPages, payoutsCsvStream } from '@/console/server/routes/payouts-csv';
import type { Db } from '@/lib/db/types';
import { createPaymentClient } from '@/console/server/upstream/payment-client';
import { merchantApi, type MerchantApi } from '@/console/server/upstream/merchant-api';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';

describe('the payouts view in the URL', () => {
  it("turns q, status and whole days of the merchant's zone into the API filter, and back", () => {
    const view = readPayoutView({ q: ' 1234 ', status: 'failed', from: '2026-02-28', to: '2026-02-28', other: 'x' });
    expect(view.success && payoutFilterOf(view.data, 'Asia/Jakarta')).toEqual({
      status: 'failed',
      account_last4: '1234',
      created_gte: '2026-02-27T17:00:00.000Z',
      created_lt: '2026-02-28T17:00:00.000Z',
    });
    // Berlin's last Sunday of March has 23 hours; Kathmandu is 5 h 45 min ahead.
    const spring = readPayoutView({ from: '2026-03-29', to: '2026-03-29' });
    expect(spring.success && payoutFilterOf(spring.data, 'Europe/Berlin')).toEqual({
      created_gte: '2026-03-28T23:00:00.000Z',
      created_lt: '2026-03-29T22:00:00.000Z',
    });
    expect(spring.success && payoutFilterOf(spring.data, 'Asia/Kathmandu')).toEqual({
      created_gte: '2026-03-28T18:15:00.000Z',
      created_lt: '2026-03-29T18:15:00.000Z',
    });
    expect(view.success && payoutViewSearch(view.data)).toBe('?q=1234&status=failed&from=2026-02-28&to=2026-02-28');
    // A payout id is no filter (the page opens it); empty and repeated values count once or not at all.
    const id = readPayoutView({ q: 'po_abc', status: 'all', to: '', from: ['2026-01-01', '2026-05-05'] });
    expect(id.success && payoutFilterOf(id.data, 'Asia/Jakarta')).toEqual({ created_gte: '2025-12-31T17:00:00.000Z' });
  });

  it.each([
    [{ q: '12345' }, 'q'],
    [{ q: 'po_' }, 'q'],
    [{ status: 'sent' }, 'status'],
    [{ from: '2026-02-30' }, 'from'],
    [{ to: 'yesterday' }, 'to'],
  ])('refuses %o naming %s', (query, field) => {
    const view = readPayoutView(query);
    expect(view.success).toBe(false);
    expect(view.error?.issues[0]?.path).toEqual([field]);
  });
});

describe('the CSV export against the real API', () => {
  let db: Db;
  let server: TestApi;
  let api: MerchantApi;
  beforeAll(async () => {
    db = await pgliteBackend.open();
    server = await startTestApi(db, { openingBalance: 100_000_000 });
    api = merchantApi(createPaymentClient({ baseUrl: server.url }), server.merchant.secretKey);
    const payouts = Array.from({ length: 250 }, (_, i) => ({
      amount: 10_000 + i,
      bank_code: 'BCA',
      account_number: i % 2 ? '5550001111' : '5550002222',
      reference: i === 7 ? '=HYPERLINK("x")' : `ref-${i}`,
    }));
    expect((await server.call({ action: 'create_payout_batch', payouts })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  const csvOf = async (pages: ReturnType<typeof payoutPages>) => new Response(await payoutsCsvStream(pages)).text();
  const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

  it('streams every row of the filter, newest first, page after page, with no cap', async () => {
    const rows = rowsOf(await csvOf(payoutPages(api, { account_last4: '2222' })));
    expect(rows.map((p) => Number(p.amount))).toEqual(Array.from({ length: 125 }, (_, i) => 10_000 + 248 - 2 * i));
    const sum = await api.summarizePayouts({ account_last4: '2222' });
    expect([sum.data.count, sum.data.total_amount]).toEqual([125, rows.reduce((s, p) => s + Number(p.amount), 0)]);
    // Pages of 7: 36 pages joined into one file, every row once, nothing cut.
    const all = rowsOf(await csvOf(payoutPages(api, {}, 7)));
    expect(all).toHaveLength(250);
    expect(new Set(all.map((r) => r.id)).size).toBe(250);
    expect(rowsOf(await csvOf(payoutPages(api, { status: 'failed' })))).toEqual([]);
  });

  it('reads a page only when the reader asks for the next one, and stops when the reader goes', async () => {
    let calls = 0;
    const counted: MerchantApi = { ...api, listPayouts: (q) => ((calls += 1), api.listPayouts(q)) };
    const stream = await payoutsCsvStream(payoutPages(counted, {}, 10));
    expect(calls).toBe(1);
    const reader = stream.getReader();
    await reader.read();
    expect(calls).toBe(1);
    await reader.read();
    expect(calls).toBe(2);
    await reader.cancel();
    expect(calls).toBe(2);
  });

  it('writes the columns with exact amounts, last four only, and formulas defused', async () => {
    const text = await csvOf(payoutPages(api, { account_last4: '1111' }));
    const first = (await api.listPayouts({ account_last4: '1111', limit: 1 })).data.data[0]!;
    expect(text).not.toContain('5550001111');
    const parsed = rowsOf(text);
    expect(parsed).toHaveLength(125);
    expect(parsed[0]).toEqual({
      id: first.id,
      created_at: first.created_at,
      amount: '10249',
      currency: 'IDR',
      bank_code: 'BCA',
      account_last4: '1111',
      status: 'pending',
      failure_code: '',
      reference: 'ref-249',
      created_by: 'Secret key',
      bank_reference: '',
      paid_at: '',
      returned_at: '',
    });
    expect(parsed.find((r) => r.amount === '10007')?.reference).toBe(`'=HYPERLINK("x")`);
  });

  it("shows a paid payout's bank reference and a returned payout's return, for reconciliation", async () => {
    const [a, b] = (await api.listPayouts({ account_last4: '2222', limit: 2 })).data.data;
    await server.call({ action: 'simulate_payout', id: a!.id, outcome: 'paid' });
    await server.call({ action: 'simulate_payout', id: b!.id, outcome: 'paid' });
    const returned = (await server.call({ action: 'simulate_payout', id: b!.id, outcome: 'returned' })).body;
    const paid = (await api.getPayout(a!.id)).data;
    const rows = rowsOf(await csvOf(payoutPages(api, { account_last4: '2222' }))).filter((r) => r.id === a!.id || r.id === b!.id);
    expect(rows.map((r) => [r.id, r.status, r.failure_code, r.bank_reference, r.paid_at, r.returned_at])).toEqual([
      [paid.id, 'paid', '', paid.bank_reference, paid.paid_at, ''],
      [returned.id, 'returned', 'account_closed', returned.bank_reference, returned.paid_at, returned.returned_at],
    ]);
    expect(paid.bank_reference).toMatch(/^TRF/);
    const onlyReturned = rowsOf(await csvOf(payoutPages(api, { status: 'returned' })));
    expect(onlyReturned.map((r) => r.id)).toEqual([returned.id]);
  });
});
