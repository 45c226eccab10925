import type { Db, Queryable } from '../db/types';
import { settlePending } from './ledger';
import { simulatedOutcome } from '../contract';

export interface SettlementResult {
  paid: number;
  failed: number;
}

export interface SettlementLimits {
  /** Payouts claimed per transaction. */
  batchSize?: number;
  /** Batches per call: bounds one tick while letting it drain more than one batch. */
  maxBatches?: number;
}

/**
 * Settles pending payouts whose time has come, each exactly once, in batches of
 * one transaction each until a batch comes back short (or `maxBatches`), so that
 * a tick keeps up with sustained withdrawals. Rows are claimed with FOR UPDATE
 * SKIP LOCKED: several instances on one PostgreSQL share the work without overlap.
 */
export async function settleDuePayouts(db: Db, limits: SettlementLimits = {}): Promise<SettlementResult> {
  const { batchSize = 500, maxBatches = 10 } = limits;
  const total: SettlementResult = { paid: 0, failed: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const batch = await db.transaction((tx) => settleBatch(tx, batchSize));
    total.paid += batch.paid;
    total.failed += batch.failed;
    if (batch.paid + batch.failed < batchSize) break;
  }
  return total;
}

interface DuePayout {
  id: string;
  merchant_id: string;
  amount: number;
  account_number: string;
}

/**
 * One batch, set-based: status changes in one statement per outcome, then one
 * balance update per merchant (pending down, failures back to available with
 * their ledger entries), all in the same transaction.
 */
async function settleBatch(tx: Queryable, limit: number): Promise<SettlementResult> {
  const due = await tx.query<DuePayout>(
    `SELECT id, merchant_id, amount, account_number FROM payouts
     WHERE status = 'pending' AND settle_after <= now()
     ORDER BY settle_after, seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  const paid: DuePayout[] = [];
  const failed: { payout: DuePayout; code: string; message: string }[] = [];
  for (const payout of due) {
    const outcome = simulatedOutcome(payout.account_number);
    if (outcome.kind === 'failed') failed.push({ payout, code: outcome.failureCode, message: outcome.failureMessage });
    else paid.push(payout);
  }
  if (paid.length > 0) {
    await tx.query(`UPDATE payouts SET status = 'paid', settled_at = now() WHERE id = ANY($1::text[])`, [paid.map((p) => p.id)]);
  }
  if (failed.length > 0) {
    await tx.query(
      `UPDATE payouts p SET status = 'failed', failure_code = f.code, failure_message = f.message, settled_at = now()
       FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, code, message) WHERE p.id = f.id`,
      [failed.map((f) => f.payout.id), failed.map((f) => f.code), failed.map((f) => f.message)],
    );
  }
  // Balances last and in merchant order: their rows are the hot ones, and a fixed
  // order keeps concurrent settlers from deadlocking on them.
  const byMerchant = new Map<string, { paidAmount: number; reversals: { payoutId: string; amount: number }[] }>();
  const forMerchant = (id: string) => {
    let settled = byMerchant.get(id);
    if (!settled) byMerchant.set(id, (settled = { paidAmount: 0, reversals: [] }));
    return settled;
  };
  for (const p of paid) forMerchant(p.merchant_id).paidAmount += p.amount;
  for (const { payout } of failed) forMerchant(payout.merchant_id).reversals.push({ payoutId: payout.id, amount: payout.amount });
  for (const merchantId of [...byMerchant.keys()].sort()) await settlePending(tx, merchantId, byMerchant.get(merchantId)!);
  return { paid: paid.length, failed: failed.length };
}

/** Marks open checkout sessions past `expires_at` as expired (reads already treat them so). */
export async function expireCheckoutSessions(db: Db): Promise<number> {
  const rows = await db.query(
    `UPDATE checkout_sessions SET status = 'expired' WHERE status = 'open' AND expires_at <= now() RETURNING 1`,
  );
  return rows.length;
}
