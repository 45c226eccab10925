import { ApiError } from '../../contract';
import type { Queryable } from '../../db/types';
import { storedInline, type ActionContext } from '../pipeline/action';
import { payoutObject, type PayoutObject, type PayoutRow } from './payout-object';
import type { PlannedWithdrawal } from './withdraw-plan';
import { withdrawStatement } from './withdraw-statement';

/** The refusal of a withdrawal the available balance does not cover (alone or in a group): it says how much is missing. */
export const insufficientFunds = (amount: number, available: number) => {
  const have = Math.max(0, available);
  return new ApiError(
    'insufficient_funds',
    `The available balance ${have} is lower than the amount ${amount}: ${amount - have} is missing.`,
    'amount',
  );
};

/** `available` as it is now, for a refusal's message (read only once a withdrawal was refused). */
export async function availableNow(db: Queryable, merchantId: string): Promise<number> {
  const [row] = await db.query<{ available: number }>('SELECT available FROM balances WHERE merchant_id = $1', [merchantId]);
  return Number(row?.available ?? 0);
}

/** A planned withdrawal's answer, given the timestamp of the transaction that writes it (alone or in a group). */
export const withdrawalAnswer = ({ row, createdBy }: PlannedWithdrawal, now: Date): PayoutObject =>
  payoutObject({
    id: row.payoutId,
    amount: row.amount,
    currency: row.currency,
    bank_code: row.bankCode,
    account_number: row.accountNumber,
    status: row.status,
    failure_code: null,
    failure_message: null,
    created_at: now,
    settled_at: null,
    batch_id: null,
    reference: null,
    created_by: createdBy,
    account_holder_name: row.accountHolderName,
    approval_expires_at: row.approvalExpirySeconds === null ? null : new Date(now.getTime() + row.approvalExpirySeconds * 1000),
    approved_by: null,
    approved_at: null,
    rejected_by: null,
    rejected_at: null,
    rejection_reason: null,
  });

/**
 * One withdrawal in one statement (withdraw-statement.ts). Under an idempotency
 * key the answer is known before that statement (the payout's id and the
 * transaction's timestamp are), so the statement stores it too and the balance row
 * stays locked for one round trip only.
 */
export async function writeWithdrawal({ db, inline }: ActionContext, w: PlannedWithdrawal): Promise<PayoutObject> {
  const answer = inline ? withdrawalAnswer(w, inline.now) : undefined;
  const { sql, params } = withdrawStatement(w.row, inline, answer && JSON.stringify(answer));
  const [row] = await db.query<PayoutRow>(sql, params);
  if (!row) throw insufficientFunds(w.row.amount, await availableNow(db, w.row.merchantId));
  return answer ? storedInline(answer) : payoutObject(row);
}
