import type { RepeatedStep } from './migration';

/**
 * payout_states rows for the paid payouts written before migration 082: steps of 10,000 payouts by seq, each
 * a short transaction of its own (payout_states_backfill_all, in 082), while withdrawals and settlement go on.
 */
export const backfill: Omit<RepeatedStep, 'version' | 'name'> = {
  repeat: 'SELECT payout_states_backfill_all($1::bigint, 10000) AS next',
};
