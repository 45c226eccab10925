import { simulatedOutcome, type ActionRequest, type CreatedBy } from '../../contract';
import type { RequestContext } from '../pipeline/action';
import { createdBy } from '../pipeline/caller';
import { newId } from '../pipeline/random-id';
import { approvalExpirySeconds, startStatus } from './approval-policy';
import { holderForPayout } from './bank-accounts';
import { assertPayoutWithinLimit } from './payout-limit';
import type { WithdrawalRow } from './withdraw-statement';

/** What a withdrawal will write, decided before any database work: withdraw's plan. */
export interface PlannedWithdrawal {
  row: WithdrawalRow;
  /** The key that makes it, as its answer shows it (the row keeps it as JSON). */
  createdBy: CreatedBy;
}

/**
 * The part of withdraw that needs no database: the key's payout limit (a refusal
 * here writes nothing and never enters a group), the payout's id and settlement
 * delay. Alone or in a group, a withdrawal is written, and answered, from this
 * (withdrawal.ts).
 */
export function planWithdrawal(
  { merchant, key, settings }: Pick<RequestContext, 'merchant' | 'key' | 'settings'>,
  input: ActionRequest<'withdraw'>,
): PlannedWithdrawal {
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
    createdBy: by,
  };
}
