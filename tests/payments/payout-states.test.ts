// payout_states is exactly the payouts, each with its status, whatever wrote them: a withdrawal, a batch,
// simulate_payout, settlement (paid, failed, backed off), any other update or delete. list_payouts by
// status reads it, so a row missing or left behind would show as a payout missing from, or wrongly in, a list.
import { describe, expect, it } from 'vitest';
import type { Queryable } from '@/lib/db/types';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { withTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';

/** Rows of payout_states against what they should be: every payout, with its state and due time. */
async function mismatch(db: Queryable) {
  const [row] = await db.query<{ missing: number; extra: number }>(
    `WITH want AS (SELECT seq, merchant_id, status AS state,
                          CASE status WHEN 'pending' THEN settle_after WHEN 'awaiting_approval' THEN approval_expires_at END AS due_at
                   FROM payouts),
          have AS (SELECT seq, merchant_id, state, due_at FROM payout_states)
     SELECT (SELECT count(*)::int FROM (SELECT * FROM want EXCEPT ALL SELECT * FROM have) d) AS missing,
            (SELECT count(*)::int FROM (SELECT * FROM have EXCEPT ALL SELECT * FROM want) d) AS extra`,
  );
  return row;
}

const listed = async (call: (body: Record<string, unknown>) => Promise<{ body: { data: { id: string }[] } }>, status: string) =>
  (await call({ action: 'list_payouts', status, limit: 100 })).body.data.map((p) => p.id).sort();

describe.each(backends)('payout_states ($name)', (backend) => {
  it('follows every path that writes payouts, and list_payouts by status agrees with the payouts', async () => {
    await withTestApi(backend, { openingBalance: 10_000_000, settings: { settlementDelaySeconds: 3600 } }, async (api) => {
      const call = (body: Record<string, unknown>) => api.call(body);
      const byStatus = async (status: string) =>
        (await api.db.query<{ id: string }>('SELECT id FROM payouts WHERE merchant_id = $1 AND status = $2', [api.merchant.id, status]))
          .map((r) => r.id)
          .sort();
      const check = async () => {
        expect(await mismatch(api.db)).toEqual({ missing: 0, extra: 0 });
        for (const status of ['pending', 'failed', 'paid', 'awaiting_approval', 'rejected'])
          expect([status, await listed(call, status)]).toEqual([status, await byStatus(status)]);
      };

      // Writes: a lone withdrawal, concurrent ones (grouped), a batch.
      const lone = (await api.call(withdrawal(10_000))).body;
      await Promise.all(
        Array.from({ length: 6 }, (_, i) => api.call(withdrawal(11_000 + i, { account_number: i % 2 ? '4000000002' : '1234567890' }))),
      );
      const batch = (
        await api.call({
          action: 'create_payout_batch',
          payouts: Array.from({ length: 8 }, (_, i) => ({
            amount: 15_000 + i,
            bank_code: 'BCA',
            account_number: i % 4 === 0 ? '4000000002' : `55500000${10 + i}`,
          })),
        })
      ).body;
      expect(batch).toMatchObject({ object: 'payout_batch' });
      await check();

      // simulate_payout, both ways.
      expect((await api.call({ action: 'simulate_payout', id: lone.id, outcome: 'failed' })).body.status).toBe('failed');
      const other = (await api.call(withdrawal(12_345))).body;
      expect((await api.call({ action: 'simulate_payout', id: other.id, outcome: 'paid' })).body.status).toBe('paid');
      await check();

      // Settlement of what is due (half of them), paid and failed; the rest stays pending with its due time.
      await api.db.query(
        `UPDATE payouts SET settle_after = now() - interval '1 second' WHERE merchant_id = $1 AND status = 'pending' AND seq % 2 = 0`,
        [api.merchant.id],
      );
      await check();
      const settled = await settleDuePayouts(api.db, { batchSize: 3 });
      expect(settled.paid + settled.failed).toBeGreaterThan(3);
      await check();

      // A settlement that throws backs its payout off: a new due time, the same state.
      const poisoned = await createMerchant(api.db, { name: 'Poisoned', openingBalance: 0 });
      await api.db.query(
        `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after)
         VALUES ('po_states_poisoned', $1, 50000, 'IDR', 'BCA', '1234567890', 'pending', now() - interval '1 second')`,
        [poisoned.id],
      );
      expect((await settleDuePayouts(api.db)).postponed).toBe(1);
      expect(await mismatch(api.db)).toEqual({ missing: 0, extra: 0 });

      // Any other update (the states approvals move through), and deletes.
      const [waiting] = await api.db.query<{ id: string }>(
        `UPDATE payouts SET status = 'awaiting_approval', approval_expires_at = now() + interval '1 day'
         WHERE id = (SELECT id FROM payouts WHERE merchant_id = $1 AND status = 'pending' ORDER BY seq LIMIT 1) RETURNING id`,
        [api.merchant.id],
      );
      await check();
      await api.db.query(`UPDATE payouts SET status = 'rejected', rejected_at = now() WHERE id = $1`, [waiting!.id]);
      await api.db.query(`UPDATE payouts SET reference = 'touched' WHERE merchant_id = $1`, [api.merchant.id]);
      await check();
      await api.db.query(`DELETE FROM payouts WHERE id = 'po_states_poisoned'`);
      expect(await mismatch(api.db)).toEqual({ missing: 0, extra: 0 });
      const [count] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payout_states WHERE merchant_id = $1`, [
        poisoned.id,
      ]);
      expect(count!.n).toBe(0);
    });
  });

  it('would see a row left behind (the check above can fail)', async () => {
    await withTestApi(backend, { openingBalance: 1_000_000 }, async (api) => {
      await api.call(withdrawal(10_000));
      expect(await mismatch(api.db)).toEqual({ missing: 0, extra: 0 });
      await api.db.exec('ALTER TABLE payouts DISABLE TRIGGER payout_states_update');
      await api.db.query(`UPDATE payouts SET status = 'paid', settled_at = now() WHERE merchant_id = $1`, [api.merchant.id]);
      // The pending row left behind, and the paid one missing.
      expect(await mismatch(api.db)).toEqual({ missing: 1, extra: 1 });
      await api.db.exec('ALTER TABLE payouts ENABLE TRIGGER payout_states_update');
    });
  });
});
