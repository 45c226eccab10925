import { ApiError } from '../../contract';
import type { CallerKey } from '../pipeline/caller';

/** A restricted key's max_payout_amount: each payout above it is refused before anything is debited. */
export function assertPayoutWithinLimit(key: CallerKey, amount: number, param: string): void {
  if (key.maxPayoutAmount !== null && amount > key.maxPayoutAmount) {
    throw new ApiError(
      'payout_limit_exceeded',
      `${param} ${amount} is above this key's max_payout_amount of ${key.maxPayoutAmount}.`,
      param,
    );
  }
}
