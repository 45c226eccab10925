import { simulatedOutcome } from '../../contract';
import type { Queryable } from '../../db/types';
import { endWaitingPayouts } from '../payouts/payout-approvals';
import { returnPayouts } from '../payouts/payout-returns';
import { settleSet, type DuePayout } from '../payouts/settlement';
import { settleRefund } from '../refunds/refund-settlement';
import { setClock } from '../pipeline/clock';
import { expireClockedCheckoutSessions } from '../checkout/checkout-expiry';
import { sendClockedStatementReady } from '../statements/statement-ready';

/**
 * The earliest time at or before `until` when something of the merchant falls due on its own; null: nothing does.
 * The end of the clock's month in the merchant's zone counts: its statement.ready is sent there.
 */
async function nextDue(tx: Queryable, merchantId: string, until: Date): Promise<Date | null> {
  const [row] = await tx.query<{ at: Date | null }>(
    `SELECT LEAST(
       (SELECT min(due_at) FROM payout_states WHERE merchant_id = $1 AND state IN ('pending', 'awaiting_approval') AND due_at <= $2),
       (SELECT min(return_after) FROM payouts WHERE merchant_id = $1 AND status = 'paid' AND return_after <= $2),
       (SELECT min(settle_after) FROM refunds WHERE merchant_id = $1 AND status = 'pending' AND settle_after <= $2),
       (SELECT min(expires_at) FROM checkout_sessions WHERE merchant_id = $1 AND status = 'open' AND expires_at <= $2),
       (SELECT month_end FROM (SELECT (date_trunc('month', app_now() AT TIME ZONE time_zone) + interval '1 month') AT TIME ZONE time_zone
          AS month_end FROM merchants WHERE id = $1) m WHERE month_end <= $2)) AS at`,
    [merchantId, until],
  );
  return row?.at ? new Date(row.at) : null;
}

/**
 * What falls due at the clock's current time `now` (set on the transaction), through the jobs' own code:
 * settlement, returns, approvals' expiry, refunds, checkout sessions' expiry, the month's statement.
 */
async function runDue(tx: Queryable, merchantId: string, now: Date, origin: string): Promise<void> {
  const pending = await tx.query<DuePayout>(
    `SELECT p.id, p.merchant_id, p.amount, p.account_number, p.settle_attempts FROM payout_states s JOIN payouts p ON p.seq = s.seq
     WHERE s.merchant_id = $1 AND s.state = 'pending' AND s.due_at <= app_now() ORDER BY s.due_at, s.seq FOR UPDATE OF p`,
    [merchantId],
  );
  if (pending.length > 0) await settleSet(tx, pending);
  const returning = await tx.query<{ id: string; account_number: string }>(
    `SELECT id, account_number FROM payouts WHERE merchant_id = $1 AND status = 'paid' AND return_after <= app_now() ORDER BY return_after, seq`,
    [merchantId],
  );
  await returnPayouts(
    tx,
    returning.map((p) => {
      const outcome = simulatedOutcome(p.account_number);
      return { id: p.id, code: outcome.kind === 'returned' ? outcome.failureCode : 'returned_by_bank' };
    }),
  );
  const expiring = await tx.query<{ id: string }>(
    `SELECT id FROM payouts WHERE merchant_id = $1 AND status = 'awaiting_approval' AND approval_expires_at <= app_now() ORDER BY id`,
    [merchantId],
  );
  if (expiring.length > 0)
    await endWaitingPayouts(
      tx,
      merchantId,
      expiring.map((p) => p.id),
      { status: 'expired' },
    );
  const refunds = await tx.query<{ id: string; fails: boolean }>(
    `SELECT id, fails FROM refunds WHERE merchant_id = $1 AND status = 'pending' AND settle_after <= app_now() ORDER BY settle_after, seq`,
    [merchantId],
  );
  for (const r of refunds) await settleRefund(tx, r.id, r.fails ? 'failed' : 'succeeded');
  await expireClockedCheckoutSessions(tx, merchantId, origin);
  await sendClockedStatementReady(tx, merchantId, now);
}

/**
 * Moves a sandbox's clock from `from` to `to` in the caller's transaction, in time order: the clock stops
 * at each moment something falls due (a payout's settlement, a return, an approval's expiry, a refund, a
 * checkout session's expiry, a month's end), runs it stamped with that moment, and goes on; then it stops
 * at `to`. The sandbox row is locked by the caller, so two advances of one clock run one after the other.
 * `origin` starts the URLs in checkout sessions' events.
 */
export async function advanceClock(
  tx: Queryable,
  sandbox: { id: string; merchantId: string },
  from: Date,
  to: Date,
  origin: string,
): Promise<void> {
  const merchantId = sandbox.merchantId;
  let now = from;
  for (;;) {
    await setClock(tx, now);
    await runDue(tx, merchantId, now, origin);
    const next = await nextDue(tx, merchantId, to);
    // Due at or before the current time was run just now; what is left is later, or nothing is.
    if (next === null || next.getTime() <= now.getTime()) {
      if (now.getTime() === to.getTime()) break;
      now = to;
    } else now = next;
  }
  await tx.query('UPDATE sandboxes SET clock_now = $2 WHERE id = $1', [sandbox.id, to]);
}
