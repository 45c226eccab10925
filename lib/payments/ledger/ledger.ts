import type { Queryable } from '../../db/types';

export type LedgerKind =
  'opening_balance' | 'adjustment' | 'payout' | 'payout_reversal' | 'checkout_payment' | 'topup' | 'refund' | 'refund_reversal';

/**
 * Every change of a balance goes through here, in the caller's transaction, with
 * its ledger entry: so `available` is always the sum of the merchant's entries,
 * and `pending_payouts` the sum of the merchant's pending payouts. Each change is
 * one conditional UPDATE, never read-then-write.
 */

// withdraw's debit is one statement of its own, ledger entry included: withdraw-statement.ts; so is
// settlement's, reversal entries included: payouts/settlement.ts.

export async function credit(tx: Queryable, merchantId: string, amount: number, kind: LedgerKind, referenceId: string) {
  const [row] = await tx.query<{ available: number }>(
    `UPDATE balances SET available = available + $2, updated_at = now() WHERE merchant_id = $1 RETURNING available`,
    [merchantId, amount],
  );
  if (!row) throw new Error(`merchant ${merchantId} has no balance`);
  await addEntry(tx, merchantId, amount, row.available, kind, referenceId);
  return row;
}

async function addEntry(tx: Queryable, merchantId: string, amount: number, balanceAfter: number, kind: LedgerKind, referenceId: string) {
  await tx.query(`INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id) VALUES ($1, $2, $3, $4, $5)`, [
    merchantId,
    amount,
    balanceAfter,
    kind,
    referenceId,
  ]);
}
