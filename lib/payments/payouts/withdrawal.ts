import { ApiError, simulatedOutcome, type ActionRequest } from '../../contract';
import type { Queryable } from '../../db/types';
import { storedInline, type PlanContext } from '../pipeline/action';
import type { InlineAnswer } from '../pipeline/idempotency';
import { approvalExpirySeconds, startStatus } from './approval-policy';
import { holderForPayout } from './bank-accounts';
import { assertPayoutWithinLimit, createdBy } from '../pipeline/permissions';
import { newId } from '../pipeline/random-id';
import { payoutObject, type PayoutObject, type PayoutRow } from './payout-object';
import { withdrawStatement, type WithdrawalRow } from './withdraw-statement';

/** What a withdrawal will write, decided before any database work: withdraw's plan. */
export interface PreparedWithdrawal {
  row: WithdrawalRow;
  /** Its answer, given the timestamp of the transaction that writes it. */
  answer(now: Date): PayoutObject;
}

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

/**
 * The part of withdraw that needs no database: the key's payout limit (a refusal
 * here writes nothing and never enters a group), the payout's id and settlement
 * delay, and its answer. Alone or in a group, a withdrawal is written from this.
 */
export function prepareWithdrawal(
  { merchant, key, settings }: Pick<PlanContext, 'merchant' | 'key' | 'settings'>,
  input: ActionRequest<'withdraw'>,
): PreparedWithdrawal {
  assertPayoutWithinLimit(key, input.amount, 'amount');
  // The bank's holder name (refused here when the sender's does not match it) and whether the payout waits for approval.
  const accountHolderName = holderForPayout(input.bank_code, input.account_number, input.account_holder_name);
  const status = startStatus(merchant, key, input.amount);
  const expirySeconds = status === 'awaiting_approval' ? approvalExpirySeconds(settings) : null;
  const payoutId = newId('po');
  const by = createdBy(key);
  const outcome = simulatedOutcome(input.account_number);
  const settleDelaySeconds = outcome.kind === 'slow' ? outcome.delaySeconds : settings.settlementDelaySeconds;
  return {
    row: {
      payoutId,
      merchantId: merchant.id,
      amount: input.amount,
      currency: merchant.currency,
      bankCode: input.bank_code,
      accountNumber: input.account_number,
      settleDelaySeconds,
      createdBy: JSON.stringify(by),
      status,
      accountHolderName,
      approvalExpirySeconds: expirySeconds,
    },
    answer: (now) =>
      payoutObject({
        id: payoutId,
        amount: input.amount,
        currency: merchant.currency,
        bank_code: input.bank_code,
        account_number: input.account_number,
        status,
        failure_code: null,
        failure_message: null,
        created_at: now,
        settled_at: null,
        batch_id: null,
        reference: null,
        created_by: by,
        account_holder_name: accountHolderName,
        approval_expires_at: expirySeconds === null ? null : new Date(now.getTime() + expirySeconds * 1000),
        approved_by: null,
        approved_at: null,
        rejected_by: null,
        rejected_at: null,
        rejection_reason: null,
      }),
  };
}

/**
 * One withdrawal in one statement (withdraw-statement.ts). Under an idempotency
 * key the answer is known before that statement (the payout's id and the
 * transaction's timestamp are), so the statement stores it too and the balance row
 * stays locked for one round trip only.
 */
export async function writeWithdrawal(db: Queryable, w: PreparedWithdrawal, inline?: InlineAnswer): Promise<PayoutObject> {
  const answer = inline ? w.answer(inline.now) : undefined;
  const { sql, params } = withdrawStatement(
    w.row,
    answer && inline ? (n, cte) => inline.store(JSON.stringify(answer), answer.id, n, cte) : undefined,
  );
  const [row] = await db.query<PayoutRow>(sql, params);
  if (!row) throw insufficientFunds(w.row.amount, await availableNow(db, w.row.merchantId));
  return answer ? storedInline(answer) : payoutObject(row);
}
