import type { BalanceTransactionType } from '../../contract';
import type { Queryable } from '../../db/types';

export type LedgerKind = BalanceTransactionType;

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

/**
 * Returned payouts of one merchant: one update credits their sum to `available`, then one
 * `payout_return` entry per payout, in order, each with the balance as if credited one by one
 * (the unique index on payout_return entries refuses a second return of a payout).
 */
export async function creditReturns(tx: Queryable, merchantId: string, returns: ReadonlyArray<{ payoutId: string; amount: number }>) {
  const total = returns.reduce((sum, r) => sum + r.amount, 0);
  const [row] = await tx.query<{ available: number }>(
    `UPDATE balances SET available = available + $2, updated_at = now() WHERE merchant_id = $1 RETURNING available`,
    [merchantId, total],
  );
  if (!row) throw new Error(`merchant ${merchantId} has no balance`);
  let balance = Number(row.available) - total;
  const after = returns.map((r) => (balance += r.amount));
  await tx.query(
    `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
     SELECT $1, e.amount, e.balance_after, 'payout_return', e.reference_id
     FROM unnest($2::bigint[], $3::bigint[], $4::text[]) WITH ORDINALITY AS e(amount, balance_after, reference_id, n)
     ORDER BY e.n`,
    [merchantId, returns.map((r) => r.amount), after, returns.map((r) => r.payoutId)],
  );
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
