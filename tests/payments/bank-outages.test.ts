import { describe, expect, it } from 'vitest';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { markBankDown, markBankUp } from '@/lib/payments/payouts/bank-outages';
import { runMerchantCommand } from '@/lib/admin/merchant-commands';
import { withTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

/** `n` payouts to each of BNI and BCA; every 5th to a failing test account. */
async function makePayouts(api: TestApi, n: number) {
  for (let i = 0; i < n; i++)
    for (const bank_code of ['BNI', 'BCA']) {
      const account_number = i % 5 === 0 ? '4000000002' : '1234567890';
      expect((await api.call(withdrawal(10_000 + i, { bank_code, account_number }))).status).toBe(200);
    }
}

const statuses = (api: TestApi, bank: string) =>
  api.db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM payouts WHERE merchant_id = $1 AND bank_code = $2 GROUP BY status ORDER BY status`,
    [api.merchant.id, bank],
  );

describe.each(backends)('bank outages ($name)', (backend) => {
  it('holds the payouts to a bank that is down pending (not failed) and settles them once it is back; the ledger stays exact', async () => {
    await withTestApi(backend, { openingBalance: 10_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      await markBankDown(api.db, { bankCode: 'BNI', endsAt: new Date(Date.now() + 3_600_000), reason: 'maintenance' });
      await makePayouts(api, 10);
      // Two batches in flight, as the server's job runs them: the other bank's payouts settle, BNI's are held.
      expect(await settleDuePayouts(api.db, { batchSize: 4, loops: 2 })).toEqual({ paid: 8, failed: 2, postponed: 0, held: 10 });
      expect(await statuses(api, 'BNI')).toEqual([{ status: 'pending', n: 10 }]);
      // Held until the window's end: later ticks do not claim them again.
      expect(await settleDuePayouts(api.db)).toEqual({ paid: 0, failed: 0, postponed: 0, held: 0 });
      const check = await ledgerCheck(api.db, api.merchant.id);
      expect(check.ledger).toBe(check.available);
      expect(check.pending).toBe(check.pendingSum);
      expect(check.pendingSum).toBe(10 * 10_000 + 45);

      // The operator's command: the bank is back, the held payouts are due at once.
      const up = await runMerchantCommand(api.db, { command: 'bank-up', bank: 'BNI' });
      expect(up.data).toMatchObject({ bank_code: 'BNI', outages: 1, released: 10 });
      expect(await settleDuePayouts(api.db)).toEqual({ paid: 8, failed: 2, postponed: 0, held: 0 });
      expect(await statuses(api, 'BNI')).toEqual([
        { status: 'failed', n: 2 },
        { status: 'paid', n: 8 },
      ]);
      const after = await ledgerCheck(api.db, api.merchant.id);
      expect(after).toMatchObject({ ledger: after.available, pending: 0, pendingSum: 0, payouts: 20 });
      // Each payout has its created event and exactly one paid/failed one.
      const [events] = await api.db.query<{ settled: number }>(
        `SELECT count(*)::int AS settled FROM events WHERE merchant_id = $1 AND type IN ('payout.paid', 'payout.failed')`,
        [api.merchant.id],
      );
      expect(events!.settled).toBe(20);
    });
  });

  it("lets the payouts go when the window ends by itself; the other bank's payouts settle throughout", async () => {
    await withTestApi(backend, { openingBalance: 10_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      const soon = new Date(Date.now() + 1500);
      await markBankDown(api.db, { bankCode: 'BNI', endsAt: soon });
      await makePayouts(api, 3);
      expect((await settleDuePayouts(api.db)).held).toBe(3);
      await new Promise((r) => setTimeout(r, 1600));
      expect(await settleDuePayouts(api.db)).toMatchObject({ paid: 2, failed: 1, held: 0 });
      // bank-up with no window covering now ends nothing and releases nothing.
      expect(await markBankUp(api.db, 'BNI', { lateMs: 0 })).toEqual({ outages: 0, released: 0 });
    });
  });

  it('refuses a bank-down without a bank or a future end', async () => {
    await withTestApi(backend, { openingBalance: 0 }, async (api) => {
      await expect(runMerchantCommand(api.db, { command: 'bank-down', bank: 'NOPE', for: '60' })).rejects.toThrow(/--bank/);
      await expect(runMerchantCommand(api.db, { command: 'bank-down', bank: 'BNI' })).rejects.toThrow(/--until/);
      const down = await runMerchantCommand(api.db, { command: 'bank-down', bank: 'BNI', for: '60', reason: 'cut-off' });
      expect(down.human).toMatch(/BNI marked down until/);
      expect((await runMerchantCommand(api.db, { command: 'bank-outages' })).data).toHaveLength(1);
    });
  });
});
