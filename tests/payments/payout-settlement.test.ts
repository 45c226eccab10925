import { describe, expect, it } from 'vitest';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { callApi, withTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

describe.each(backends)('payout lifecycle ($name)', (backend) => {
  it('settles pending payouts: paid, or failed with the amount returned through the ledger', async () => {
    await withTestApi(backend, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      const paid = await api.call(withdrawal(100_000));
      const invalid = await api.call(withdrawal(200_000, { account_number: '4000000001' }));
      const rejected = await api.call(withdrawal(50_000, { account_number: '4000000002' }));
      const slow = await api.call(withdrawal(70_000, { account_number: '4000000003' }));
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({
        available: 580_000,
        ledger: 580_000,
        pending: 420_000,
        pendingSum: 420_000,
        payouts: 4,
      });
      expect((await api.call({ action: 'get_balance' })).body).toMatchObject({ available: 580_000, pending_payouts: 420_000 });

      expect(await settleDuePayouts(api.db)).toEqual({ paid: 1, failed: 2, postponed: 0, held: 0 });
      expect(await settleDuePayouts(api.db)).toEqual({ paid: 0, failed: 0, postponed: 0, held: 0 });

      const get = async (id: string) => (await api.call({ action: 'get_payout', id })).body;
      expect(await get(paid.body.id)).toMatchObject({ status: 'paid', failure_code: null, settled_at: expect.any(String) });
      expect(await get(invalid.body.id)).toMatchObject({
        status: 'failed',
        failure_code: 'invalid_account',
        failure_message: expect.any(String),
      });
      expect(await get(rejected.body.id)).toMatchObject({ status: 'failed', failure_code: 'rejected_by_bank' });
      expect(await get(slow.body.id)).toMatchObject({ status: 'pending', settled_at: null });

      const balance = (await api.call({ action: 'get_balance' })).body;
      expect(balance).toMatchObject({ available: 830_000, pending_payouts: 70_000 });
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({
        available: 830_000,
        ledger: 830_000,
        pending: 70_000,
        pendingSum: 70_000,
        payouts: 4,
      });
      const reversals = await api.db.query<{ reference_id: string; amount: number }>(
        `SELECT reference_id, amount FROM ledger_entries WHERE kind = 'payout_reversal' ORDER BY id`,
      );
      expect(reversals).toEqual([
        { reference_id: invalid.body.id, amount: 200_000 },
        { reference_id: rejected.body.id, amount: 50_000 },
      ]);

      const failedList = await api.call({ action: 'list_payouts', status: 'failed' });
      expect(failedList.body.data.map((p: { id: string }) => p.id)).toEqual([rejected.body.id, invalid.body.id]);
    });
  });

  it('leaves payouts pending until their settlement time', async () => {
    await withTestApi(backend, { settings: { settlementDelaySeconds: 3600 } }, async (api) => {
      await api.call(withdrawal(10_000));
      expect(await settleDuePayouts(api.db)).toEqual({ paid: 0, failed: 0, postponed: 0, held: 0 });
    });
  });
});

describe.runIf(backends.some((b) => b.name === 'postgres'))('settlement with several workers (postgres)', () => {
  it('settles each payout exactly once and keeps pending exact while workers and withdrawals run at once', async () => {
    const backend = backends.find((b) => b.name === 'postgres')!;
    await withTestApi(backend, { openingBalance: 50_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      // A second merchant in the same batches: settlers lock balance rows in one order, so none deadlocks.
      const other = await createMerchant(api.db, { name: 'Other', openingBalance: 5_000_000 });
      const account = (i: number) => (i % 3 === 0 ? '4000000001' : '1234567890');
      for (let i = 0; i < 60; i++) {
        await api.call(withdrawal(20_000, { account_number: account(i) }));
        if (i % 2 === 0) await callApi(api.url, other.secretKey, withdrawal(10_000, { account_number: account(i) }));
      }
      const settlers = Array.from({ length: 6 }, () => settleDuePayouts(api.db, { batchSize: 7, maxBatches: 3 }));
      const more = Array.from({ length: 12 }, (_, i) => api.call(withdrawal(20_000, { account_number: account(i) })));
      const results = await Promise.all(settlers);
      expect((await Promise.all(more)).every((r) => r.status === 200)).toBe(true);
      let total = results.reduce((n, r) => n + r.paid + r.failed, 0);
      for (let r = await settleDuePayouts(api.db); r.paid + r.failed > 0; r = await settleDuePayouts(api.db)) total += r.paid + r.failed;
      expect(total).toBe(72 + 30);
      const reversals = await api.db.query('SELECT 1 FROM ledger_entries WHERE kind = $1', ['payout_reversal']);
      expect(reversals).toHaveLength(24 + 10);
      const available = 50_000_000 - 48 * 20_000;
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({ available, ledger: available, pending: 0, pendingSum: 0, payouts: 72 });
      const otherAvailable = 5_000_000 - 20 * 10_000;
      expect(await ledgerCheck(api.db, other.id)).toEqual({
        available: otherAvailable,
        ledger: otherAvailable,
        pending: 0,
        pendingSum: 0,
        payouts: 30,
      });
    });
  });
});
