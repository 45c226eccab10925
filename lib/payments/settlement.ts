import type { Db } from '../db/types';
import { credit } from './ledger';
import { simulatedOutcome } from './test-banks';

export interface SettlementResult {
  paid: number;
  failed: number;
}

/**
 * Settles pending payouts whose time has come, each exactly once: rows are
 * claimed with FOR UPDATE SKIP LOCKED, so several instances on one PostgreSQL
 * share the work without overlap. A failure returns the amount to `available`
 * with a ledger entry in the same transaction as the status change.
 */
export async function settleDuePayouts(db: Db, batchSize = 50): Promise<SettlementResult> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: string; merchant_id: string; amount: number; account_number: string }>(
      `SELECT id, merchant_id, amount, account_number FROM payouts
       WHERE status = 'pending' AND settle_after <= now()
       ORDER BY settle_after, seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    const result: SettlementResult = { paid: 0, failed: 0 };
    for (const payout of due) {
      const outcome = simulatedOutcome(payout.account_number);
      if (outcome.kind !== 'failed') {
        await tx.query(`UPDATE payouts SET status = 'paid', settled_at = now() WHERE id = $1`, [payout.id]);
        result.paid++;
        continue;
      }
      await tx.query(
        `UPDATE payouts SET status = 'failed', failure_code = $2, failure_message = $3, settled_at = now() WHERE id = $1`,
        [payout.id, outcome.failureCode, outcome.failureMessage],
      );
      await credit(tx, payout.merchant_id, payout.amount, 'payout_reversal', payout.id);
      result.failed++;
    }
    return result;
  });
}

/** Marks open checkout sessions past `expires_at` as expired (reads already treat them so). */
export async function expireCheckoutSessions(db: Db): Promise<number> {
  const rows = await db.query(
    `UPDATE checkout_sessions SET status = 'expired' WHERE status = 'open' AND expires_at <= now() RETURNING 1`,
  );
  return rows.length;
}
