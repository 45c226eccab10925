import type { RepeatedStep } from './migration';

/**
 * payout_states for the payouts written before migration 050: steps of 10,000 payouts by seq, each a
 * short transaction of its own (payout_states_backfill, in 050), while withdrawals and settlement go on.
 */
export const backfill: Omit<RepeatedStep, 'version' | 'name'> = {
  repeat: 'SELECT payout_states_backfill($1::bigint, 10000) AS next',
};
