// The Balance page's chart: the available balance at the end of each day, exact for a merchant with far
// more entries in the period than one page holds (the chart used to read the newest 100 only).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { endOfDayBalances } from '@/console/server/data/daily-balances';
import { createPaymentClient } from '@/console/server/upstream/payment-client';
import { merchantApi } from '@/console/server/upstream/merchant-api';
import { pgliteBackend } from '../../testing/databases';
import { startTestApi, type TestApi } from '../helpers/api-server';

let db: Db;
let api: TestApi;
beforeAll(async () => {
  db = await pgliteBackend.open();
  // No opening balance: every entry is one of the test's, written in time order (as the ledger writes them).
  api = await startTestApi(db, { openingBalance: 0 });
});
afterAll(async () => {
  await api.close();
  await db.close();
});

const DAY = 86_400_000;

it('gives each of the last 30 days its closing balance, from 250 entries spread over 40 days', async () => {
  // Entries spread back in time, oldest first, 4 hours apart, the newest an hour ago: written as the
  // ledger is written (INSERT), so the per-day figures are kept by the same statement.
  await db.query(
    `WITH e AS (
       SELECT i, now() - interval '1 hour' - (250 - i) * interval '4 hours' AS at FROM generate_series(1, 250) AS i),
     bal AS (UPDATE balances SET available = available + 31375 WHERE merchant_id = $1 RETURNING available - 31375 AS before)
     INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at)
     SELECT $1, i, bal.before + i * (i + 1) / 2, 'topup', 'test', at FROM e, bal ORDER BY i`,
    [api.merchant.id],
  );
  const entries = await db.query<{ id: number; balance_after: string | number; created_at: Date }>(
    'SELECT id, balance_after, created_at FROM ledger_entries WHERE merchant_id = $1 ORDER BY id',
    [api.merchant.id],
  );
  const now = Date.now();
  const points = await endOfDayBalances(merchantApi(createPaymentClient({ baseUrl: api.url }), api.merchant.secretKey), 30);

  // Expected from the entries alone: the balance after the newest entry before each day's end, in the
  // merchant's zone (Asia/Jakarta, UTC+7 all year).
  const ZONE = 7 * 3_600_000;
  const tomorrow = Math.floor((now + ZONE) / DAY) * DAY + DAY - ZONE;
  const expected = Array.from({ length: 30 }, (_, i) => {
    const end = tomorrow - (29 - i) * DAY;
    const balance = Number(entries.filter((e) => new Date(e.created_at).getTime() < end).at(-1)?.balance_after ?? 0);
    return { day: new Date(end - DAY + ZONE).toISOString().slice(0, 10), balance };
  });
  expect(points).toEqual(expected);
  expect(points.at(-1)!.balance).toBe((250 * 251) / 2);
  // More entries in the period than one page: the first day's figure is not just the oldest page's.
  expect(entries.filter((e) => new Date(e.created_at).getTime() >= tomorrow - 30 * DAY).length).toBeGreaterThan(100);
  expect(new Set(points.map((p) => p.balance)).size).toBeGreaterThan(20);
});
