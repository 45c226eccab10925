// The Reports page's period and its statement's lines as CSV, paged through the real API.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoInZone, periodInstants, periodLabel, reportPeriod, statementFileName, statementRequest } from '@/console/browser/report-period';
import { statementLinePages, statementLinesStream } from '@/console/server/routes/statement-csv';
import type { Db } from '@/lib/db/types';
import { createPaymentClient } from '@/console/server/upstream/payment-client';
import { merchantApi, type MerchantApi } from '@/console/server/upstream/merchant-api';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';

describe('the reports period', () => {
  it('defaults to the last complete month in the zone, and reads a range of days in the zone', () => {
    // 31 October 2026, 20:00 UTC: already 1 November in Jakarta, still October in Berlin.
    const now = Date.parse('2026-10-31T20:00:00Z');
    expect(reportPeriod({}, 'Asia/Jakarta', now)).toEqual({ month: '2026-10' });
    expect(reportPeriod({ month: 'junk' }, 'Europe/Berlin', now)).toEqual({ month: '2026-09' });
    expect(reportPeriod({ month: '2026-02' }, 'Asia/Jakarta', now)).toEqual({ month: '2026-02' });
    const range = reportPeriod({ from: '2026-10-24', to: '2026-10-25' }, 'Europe/Berlin', now);
    // Berlin's 25 October is 25 hours long (summer time ends): [23 Oct 22:00Z, 25 Oct 23:00Z).
    expect(statementRequest(range, 'Europe/Berlin')).toEqual({ from: '2026-10-23T22:00:00.000Z', to: '2026-10-25T23:00:00.000Z' });
    expect(periodLabel('2026-10-23T22:00:00.000Z', '2026-10-25T23:00:00.000Z', 'Europe/Berlin')).toBe('24 Oct 2026 – 25 Oct 2026');
  });

  it('names the CSV for the period in the zone and writes times with the zone offset', () => {
    expect(statementFileName({ month: '2026-11' })).toBe('statement-2026-11.csv');
    expect(statementFileName({ fromDate: '2026-11-03', toDate: '2026-11-09' })).toBe('statement-2026-11-03-2026-11-09.csv');
    // 00:47 WIB on 28 November is 17:47 UTC on the 27th: the merchant's day, and the exact instant.
    expect(isoInZone('2026-11-27T17:47:00.123Z', 'Asia/Jakarta')).toBe('2026-11-28T00:47:00+07:00');
    expect(isoInZone('2026-11-27T17:47:00Z', 'Asia/Kathmandu')).toBe('2026-11-27T23:32:00+05:45');
    expect(isoInZone('2026-07-01T12:00:00Z', 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(periodInstants({ month: '2026-11' }, 'Asia/Jakarta')).toEqual({
      from: '2026-10-31T17:00:00.000Z',
      to: '2026-11-30T17:00:00.000Z',
    });
  });
});

describe('the statement lines CSV against the real API', () => {
  let db: Db;
  let server: TestApi;
  let api: MerchantApi;
  let from: string;
  beforeAll(async () => {
    db = await pgliteBackend.open();
    server = await startTestApi(db, { openingBalance: 100_000_000 });
    api = merchantApi(createPaymentClient({ baseUrl: server.url }), server.merchant.secretKey);
    from = new Date(Date.now() - 60_000).toISOString();
    const payouts = Array.from({ length: 230 }, (_, i) => ({ amount: 10_000 + i, bank_code: 'BCA', account_number: '5550001111' }));
    expect((await server.call({ action: 'create_payout_batch', payouts })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

  it('streams every line of the period, page after page, amounts as signed integers, closing = opening + lines', async () => {
    const to = new Date(Date.now() + 1).toISOString();
    const rows = rowsOf(await new Response(await statementLinesStream(statementLinePages(api, from, to), 'Asia/Jakarta')).text());
    expect(rows).toHaveLength(231);
    expect(rows.at(-1)).toMatchObject({
      type: 'opening_balance',
      kind: 'Opening balance',
      amount: '100000000',
      source: server.merchant.id,
    });
    // Times on the merchant's clock with its offset, to the second.
    expect(rows.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+07:00$/.test(r.created_at!))).toBe(true);
    expect(rows.slice(0, 230).every((r) => r.type === 'payout' && /^-[0-9]+$/.test(r.amount!) && r.source!.startsWith('po_'))).toBe(true);
    const statement = (await api.getStatement({ from, to })).data;
    expect(statement.opening_balance + rows.reduce((s, r) => s + Number(r.amount), 0)).toBe(statement.closing_balance);
    // An empty period: the header alone.
    const empty = await new Response(
      await statementLinesStream(statementLinePages(api, to, new Date(Date.now() + 60_000).toISOString()), 'Asia/Jakarta'),
    ).text();
    expect(empty.trim()).toBe('id,created_at,type,kind,amount,currency,balance_after,source,bank_reference');
  });

  it('reads a page only when the reader asks for the next one', async () => {
    let calls = 0;
    const counted: MerchantApi = { ...api, listBalanceTransactions: (q) => ((calls += 1), api.listBalanceTransactions(q)) };
    const stream = await statementLinesStream(statementLinePages(counted, from, new Date(Date.now() + 1).toISOString()), 'UTC');
    expect(calls).toBe(1);
    const reader = stream.getReader();
    await reader.read();
    await reader.read();
    expect(calls).toBe(2);
    await reader.cancel();
    expect(calls).toBe(2);
  });
});
