import type { ActionRequest } from '../../contract';
import type { SqlCondition } from '../pipeline/list-page';

type PayoutFilter = Pick<ActionRequest<'summarize_payouts'>, 'status' | 'created_gte' | 'created_lt' | 'account_last4'>;

/** The filters list_payouts and summarize_payouts share, as SQL, so a list and its total select the same rows. */
export const payoutFilterConditions = (f: PayoutFilter): SqlCondition[] => [
  { sql: 'status = ?', value: f.status },
  { sql: 'created_at >= ?::timestamptz', value: f.created_gte },
  { sql: 'created_at < ?::timestamptz', value: f.created_lt },
  // Only the last four digits are ever shown, so only they can be searched.
  { sql: 'right(account_number, 4) = ?', value: f.account_last4 },
];
