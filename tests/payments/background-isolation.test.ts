// One bad row, or one failing job, stops nothing else.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { createMerchant } from '@/lib/payments/merchants/merchants';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import { startBackgroundJobs } from '@/lib/server/background-jobs';
import { withTestApi, withdrawal } from '../helpers/api-server';
import { backends } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

/** A pending payout that was never reserved: settling it would take pending_payouts below zero. */
async function plantUnsettleablePayout(db: { query: (sql: string, p?: unknown[]) => Promise<unknown> }, merchantId: string) {
  await db.query(
    `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after)
     VALUES ('po_poisoned', $1, 50000, 'IDR', 'BCA', '1234567890', 'pending', now() - interval '1 second')`,
    [merchantId],
  );
}

describe.each(backends)('isolation of background work ($name)', (backend) => {
  it('settles every other payout of the batch when one merchant cannot be settled, and backs that one off', async () => {
    await withTestApi(backend, { openingBalance: 1_000_000, settings: { settlementDelaySeconds: 0 } }, async (api) => {
      const other = await createMerchant(api.db, { name: 'Poisoned', openingBalance: 0 });
      await plantUnsettleablePayout(api.db, other.id);
      const ok = await Promise.all([api.call(withdrawal(10_000)), api.call(withdrawal(20_000, { account_number: '4000000001' }))]);

      const told: string[][] = [];
      const result = await settleDuePayouts(api.db, {}, ({ payoutIds }) => told.push(payoutIds));
      expect(result).toEqual({ paid: 1, failed: 1, postponed: 1, held: 0 });
      expect(told).toEqual([['po_poisoned']]);
      expect((await api.call({ action: 'get_payout', id: ok[0].body.id })).body.status).toBe('paid');
      expect((await api.call({ action: 'get_payout', id: ok[1].body.id })).body.status).toBe('failed');
      expect(await ledgerCheck(api.db, api.merchant.id)).toMatchObject({ available: 990_000, ledger: 990_000, pending: 0, pendingSum: 0 });

      const [poisoned] = await api.db.query<{ status: string; settle_attempts: number; later: boolean }>(
        `SELECT status, settle_attempts, settle_after > now() + interval '5 seconds' AS later FROM payouts WHERE id = 'po_poisoned'`,
      );
      expect(poisoned).toEqual({ status: 'pending', settle_attempts: 1, later: true });
      // Backed off: the next tick does not claim it again, and says nothing more about it.
      expect(await settleDuePayouts(api.db, {}, ({ payoutIds }) => told.push(payoutIds))).toEqual({
        paid: 0,
        failed: 0,
        postponed: 0,
        held: 0,
      });
      expect(told).toHaveLength(1);
    });
  });

  it('keeps the other jobs running while one fails on every tick, and logs that failure once', async () => {
    await withTestApi(backend, { openingBalance: 1_000_000 }, async (api) => {
      const session = await api.call({ action: 'create_checkout_session', amount: 5_000 });
      await api.db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [session.body.id]);
      // Settlement and the approval expiry now throw on every tick (both claim through payout_states).
      await api.db.exec('ALTER TABLE payouts RENAME TO payouts_gone; ALTER TABLE payout_states RENAME TO payout_states_gone');

      let out = '';
      const log = createLogger({ level: 'info', destination: new Writable({ write: (c, _e, cb) => ((out += c), cb()) }) });
      const runs: string[] = [];
      const jobs = startBackgroundJobs(api.db, log, {
        idempotencyTtlSeconds: 86_400,
        publicOrigin: api.url,
        tickMs: 20,
        observe: (job, outcome) => runs.push(`${job}:${outcome}`),
      });
      try {
        await expect
          .poll(async () => (await api.db.query<{ status: string }>(`SELECT status FROM checkout_sessions`))[0]!.status, {
            timeout: 10_000,
          })
          .toBe('expired');
        await expect.poll(() => runs.filter((r) => r === 'settlement:failed').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      } finally {
        await jobs.stop();
        await api.db.exec('ALTER TABLE payouts_gone RENAME TO payouts; ALTER TABLE payout_states_gone RENAME TO payout_states');
      }
      expect(runs).toContain('checkout_expiry:ok');
      expect(runs).toContain('idempotency_purge:ok');
      // Each job that reads payouts (settlement, the approval expiry, the bank's returns) fails and logs it once, however many ticks.
      const failures = out
        .split('\n')
        .filter((line) => line.includes('background job failed'))
        .map((line) => JSON.parse(line).job);
      expect(failures.sort()).toEqual(['payout_approval_expiry', 'payout_returns', 'settlement']);
    });
  });
});
