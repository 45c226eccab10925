import { describe, expect, it } from 'vitest';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { withTestApi, withdrawal, type TestApi } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

/** 25 payouts of distinct amounts: every 4th fails invalid_account, the next fails rejected_by_bank, the rest are paid. */
async function makePayouts(api: TestApi) {
  const sums = { paid: 0, failed: 0 };
  for (let i = 0; i < 25; i++) {
    const amount = 10_000 + i * 1_000;
    const account = i % 4 === 0 ? '4000000001' : i % 4 === 1 ? '4000000002' : '1234567890';
    expect((await api.call(withdrawal(amount, { account_number: account }))).status).toBe(200);
    if (account === '1234567890') sums.paid += amount;
    else sums.failed += amount;
  }
  return sums;
}

describe.each(backends)('settlement in batches ($name)', (backend) => {
  it('settles more than one batch of due payouts in one call; failures restore available and leave pending exactly', async () => {
    await withTestApi(backend, { openingBalance: 2_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      const slow = await api.call(withdrawal(33_000, { account_number: '4000000003' }));
      const sums = await makePayouts(api);
      const reserved = sums.paid + sums.failed + 33_000;
      // The withdrawals moved their amounts to pending: get_balance reads it from the balance row.
      expect((await api.call({ action: 'get_balance' })).body).toMatchObject({
        available: 2_000_000 - reserved,
        pending_payouts: reserved,
      });

      // Batches of 10: 10, 10, then 5 (short), all in this one call.
      expect(await settleDuePayouts(api.db, { batchSize: 10 })).toEqual({ paid: 12, failed: 13, postponed: 0, held: 0 });
      const available = 2_000_000 - sums.paid - 33_000;
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({
        available,
        ledger: available,
        pending: 33_000,
        pendingSum: 33_000,
        payouts: 26,
      });
      expect((await api.call({ action: 'get_balance' })).body).toMatchObject({ available, pending_payouts: 33_000 });
      expect((await api.call({ action: 'get_payout', id: slow.body.id })).body.status).toBe('pending');

      // Every entry's balance_after is the running sum, reversals written in one statement included.
      const entries = await api.db.query<{ amount: number; balance_after: number; kind: string }>(
        'SELECT amount, balance_after, kind FROM ledger_entries WHERE merchant_id = $1 ORDER BY id',
        [api.merchant.id],
      );
      let running = 0;
      for (const e of entries) expect(e.balance_after).toBe((running += e.amount));
      expect(entries.filter((e) => e.kind === 'payout_reversal')).toHaveLength(13);
      const failed = await api.db.query<{ failure_code: string; n: number }>(
        `SELECT failure_code, count(*) AS n FROM payouts WHERE status = 'failed' GROUP BY failure_code ORDER BY failure_code`,
      );
      expect(failed).toEqual([
        { failure_code: 'invalid_account', n: 7 },
        { failure_code: 'rejected_by_bank', n: 6 },
      ]);
    });
  });

  it('stops after maxBatches: one call is bounded, the next one continues', async () => {
    await withTestApi(backend, { openingBalance: 2_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      await makePayouts(api);
      expect(await settleDuePayouts(api.db, { batchSize: 10, maxBatches: 2 })).toEqual({ paid: 10, failed: 10, postponed: 0, held: 0 });
      const mid = await ledgerCheck(api.db, api.merchant.id);
      expect(mid.pending).toBe(mid.pendingSum);
      expect(mid.pending).toBeGreaterThan(0);
      expect(await settleDuePayouts(api.db, { batchSize: 10, maxBatches: 2 })).toEqual({ paid: 2, failed: 3, postponed: 0, held: 0 });
      expect(await ledgerCheck(api.db, api.merchant.id)).toMatchObject({ pending: 0, pendingSum: 0 });
    });
  });

  it("two batches in flight (the server's tick) settle each payout once, balances and reversal entries exact", async () => {
    await withTestApi(backend, { openingBalance: 2_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      const sums = await makePayouts(api);
      expect(await settleDuePayouts(api.db, { batchSize: 4, loops: 2 })).toEqual({ paid: 12, failed: 13, postponed: 0, held: 0 });
      const available = 2_000_000 - sums.paid;
      expect(await ledgerCheck(api.db, api.merchant.id)).toEqual({ available, ledger: available, pending: 0, pendingSum: 0, payouts: 25 });
      const entries = await api.db.query<{ amount: number; balance_after: number }>(
        'SELECT amount, balance_after FROM ledger_entries WHERE merchant_id = $1 ORDER BY id',
        [api.merchant.id],
      );
      let running = 0;
      for (const e of entries) expect(e.balance_after).toBe((running += e.amount));
      const [events] = await api.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND type IN ('payout.paid', 'payout.failed')`,
        [api.merchant.id],
      );
      expect(events!.n).toBe(25);
    });
  });
});
