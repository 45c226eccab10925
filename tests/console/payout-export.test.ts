// The payouts page's view (URL query to API filter) and its CSV export, paged through the real API.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutFilterOf, payoutViewSearch, readPayoutView } from '@/lib/client/payout-view';
import { payoutsCsv, payoutsForExport } from '@/lib/console/payouts-csv';
import type { Db } from '@/lib/db/types';
import { createPaymentClient } from '@/lib/upstream/payment-client';
import { merchantApi, type MerchantApi } from '@/lib/upstream/merchant-api';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../helpers/databases';

describe('the payouts view in the URL', () => {
  it('turns q, status and whole UTC days into the API filter, and back', () => {
    const view = readPayoutView({ q: ' 1234 ', status: 'failed', from: '2026-02-28', to: '2026-02-28', other: 'x' });
    expect(view.success && payoutFilterOf(view.data)).toEqual({
      status: 'failed', account_last4: '1234', created_gte: '2026-02-28T00:00:00.000Z', created_lt: '2026-03-01T00:00:00.000Z',
    });
    expect(view.success && payoutViewSearch(view.data)).toBe('?q=1234&status=failed&from=2026-02-28&to=2026-02-28');
    // A payout id is no filter (the page opens it); empty and repeated values count once or not at all.
    const id = readPayoutView({ q: 'po_abc', status: 'all', to: '', from: ['2026-01-01', '2026-05-05'] });
    expect(id.success && payoutFilterOf(id.data)).toEqual({ created_gte: '2026-01-01T00:00:00.000Z' });
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
      amount: 10_000 + i, bank_code: 'BCA', account_number: i % 2 ? '5550001111' : '5550002222', reference: i === 7 ? '=HYPERLINK("x")' : `ref-${i}`,
    }));
    expect((await server.call({ action: 'create_payout_batch', payouts })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  it('pages through every row of the filter, newest first, and stops at the bound saying so', async () => {
    const all = await payoutsForExport(api, { account_last4: '2222' });
    expect(all.truncated).toBe(false);
    expect(all.rows.map((p) => p.amount)).toEqual(Array.from({ length: 125 }, (_, i) => 10_000 + 248 - 2 * i));
    const sum = await api.summarizePayouts({ account_last4: '2222' });
    expect([sum.data.count, sum.data.total_amount]).toEqual([125, all.rows.reduce((s, p) => s + p.amount, 0)]);
    const cut = await payoutsForExport(api, {}, 120);
    expect([cut.rows.length, cut.truncated]).toEqual([120, true]);
    expect((await payoutsForExport(api, {}, 250)).truncated).toBe(false);
  });

  it('writes the columns with exact amounts, last four only, and formulas defused', async () => {
    const { rows } = await payoutsForExport(api, { account_last4: '1111' });
    const text = payoutsCsv(rows);
    expect(text).not.toContain('5550001111');
    const parsed = Papa.parse<Record<string, string>>(text, { header: true });
    expect(parsed.data).toHaveLength(125);
    expect(parsed.data[0]).toEqual({
      id: rows[0]!.id, created_at: rows[0]!.created_at, amount: '10249', currency: 'IDR', bank_code: 'BCA', account_last4: '1111',
      status: 'pending', failure_code: '', reference: 'ref-249', created_by: 'Secret key',
    });
    expect(parsed.data.find((r) => r.amount === '10007')?.reference).toBe(`'=HYPERLINK("x")`);
  });
});
