// A payout's lock order (docs/prove.md, "Lock order"): its payout_states row before its payouts row, on every
// path that changes a payout. simulate_payout takes the state row first; a path that locked the payout first
// and then updated it (its trigger rewrites the state row) deadlocked with it: the returns job did, under the
// payout-returns stress on PostgreSQL. Each case holds a payout's state row as simulate_payout does, runs the
// other path, then takes the payout row as simulate_payout would next: it must be free. (PostgreSQL only:
// PGlite is one connection.)
import { describe, expect, it } from 'vitest';
import { markBankDown, markBankUp } from '@/lib/payments/payouts/bank-outages';
import { expireUnapprovedPayouts } from '@/lib/payments/payouts/payout-approvals';
import { returnDuePayouts } from '@/lib/payments/payouts/payout-returns';
import { settleDuePayouts } from '@/lib/payments/payouts/settlement';
import type { Db } from '@/lib/db/types';
import { callApi, useTestApi, withdrawal } from '../helpers/api-server';
import { sessionsWaitingFor } from '../helpers/lock-waits';
import { postgresBackend, postgresUrl } from '../../testing/databases';

/**
 * Holds `payoutId`'s state row in a transaction of its own while `contender` runs, until the contender ends
 * or waits for that transaction; then tries the payout row with NOWAIT. Answers whether the payout row was
 * free, and the contender's result once the hold is released.
 */
async function whileStateRowHeld<T>(db: Db, payoutId: string, contender: () => Promise<T>) {
  let holding!: (pid: number) => void;
  const held = new Promise<number>((resolve) => (holding = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const holder = db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM payout_states WHERE seq = (SELECT seq FROM payouts WHERE id = $1) FOR UPDATE', [payoutId]);
    holding((await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid);
    await gate;
    return tx.query('SELECT 1 FROM payouts WHERE id = $1 FOR UPDATE NOWAIT', [payoutId]).then(
      () => 'free',
      (error: { code?: string }) => `locked (${error.code})`,
    );
  });
  const pid = await held;
  let ended = false;
  const result = contender().finally(() => (ended = true));
  await expect.poll(async () => ended || (await sessionsWaitingFor(db, pid)) > 0, { timeout: 10_000, interval: 20 }).toBe(true);
  open();
  const payoutRow = await holder;
  return { payoutRow, result: await result };
}

describe.runIf(postgresUrl)('a payout is locked state row first, on every path (PostgreSQL)', () => {
  const api = useTestApi(postgresBackend, { openingBalance: 10_000_000, settings: { settlementDelaySeconds: 3600 } });
  const call = (body: Record<string, unknown>, key = api().merchant.secretKey) => callApi(api().url, key, body);

  /** A job run while the payout's state row is held leaves it alone (its payout row untouched); run again, it takes it. */
  async function expectSkippedWhileHeld(payoutId: string, job: () => Promise<number>, status: string) {
    const { payoutRow, result } = await whileStateRowHeld(api().db, payoutId, job);
    expect(payoutRow).toBe('free');
    expect(result).toBe(0);
    expect(await job()).toBe(1);
    expect((await call({ action: 'get_payout', id: payoutId })).body.status).toBe(status);
  }

  it('the returns job skips a payout whose state row is held, and never holds its payout row', async () => {
    const po = (await call(withdrawal(100_000, { account_number: '4000000004' }))).body;
    expect((await call({ action: 'simulate_payout', id: po.id, outcome: 'paid' })).status).toBe(200);
    await api().db.query('UPDATE payouts SET return_after = now() WHERE id = $1', [po.id]);
    await expectSkippedWhileHeld(po.id, () => returnDuePayouts(api().db), 'returned');
  });

  it('an approval waits for a held state row without holding the payout row', async () => {
    const maker = (await call({ action: 'create_restricted_key', name: 'Support', permissions: ['payouts:write'] })).body.secret;
    expect((await call({ action: 'update_payout_approval_policy', required: true })).status).toBe(200);
    const po = (await call(withdrawal(50_000), maker)).body;
    expect(po.status).toBe('awaiting_approval');

    const { payoutRow, result } = await whileStateRowHeld(api().db, po.id, () => call({ action: 'approve_payouts', ids: [po.id] }));
    expect(payoutRow).toBe('free');
    expect(result.status, result.text).toBe(200);
    expect(result.body.data[0].status).toBe('pending');
  });

  it('the expiry job skips a waiting payout whose state row is held, and never holds its payout row', async () => {
    expect((await call({ action: 'update_payout_approval_policy', required: true, for_keys: 'all' })).status).toBe(200);
    const po = (await call(withdrawal(30_000))).body;
    await api().db.query('UPDATE payouts SET approval_expires_at = now() WHERE id = $1', [po.id]);
    await expectSkippedWhileHeld(po.id, () => expireUnapprovedPayouts(api().db), 'expired');
  });

  it("the bank's return waits for a held payout's state row without holding its payout row, then makes it due", async () => {
    expect((await call({ action: 'update_payout_approval_policy', required: false })).status).toBe(200);
    await markBankDown(api().db, { bankCode: 'BNI', endsAt: new Date(Date.now() + 3_600_000) });
    const po = (await call(withdrawal(20_000, { bank_code: 'BNI' }))).body;
    await api().db.query('UPDATE payouts SET settle_after = now() WHERE id = $1', [po.id]);
    expect((await settleDuePayouts(api().db)).held).toBe(1);

    const { payoutRow, result } = await whileStateRowHeld(api().db, po.id, () => markBankUp(api().db, 'BNI', { lateMs: 0 }));
    expect(payoutRow).toBe('free');
    expect(result).toEqual({ outages: 1, released: 1 });
    expect(
      (await api().db.query<{ due: boolean }>('SELECT settle_after <= now() AS due FROM payouts WHERE id = $1', [po.id]))[0]!.due,
    ).toBe(true);
  });
});
