import { readAction } from '../pipeline/action';
import { statementOf, statementPeriod } from './statement';
import { balanceDays } from './zone-summary';

/** get_statement: a month in the merchant's zone, or an exact period (docs/api.md, "Statements"). */
export const getStatement = readAction('get_statement', async ({ db, merchant }, input) => {
  const { from, to } = statementPeriod(merchant.timeZone, input);
  return statementOf(db, merchant, from, to);
});

/** summarize_balance: the last `days` days in the merchant's zone, from the ledger figures (migration 041). */
export const summarizeBalance = readAction('summarize_balance', async ({ db, merchant }, input) => ({
  object: 'balance_summary' as const,
  currency: merchant.currency,
  time_zone: merchant.timeZone,
  // A sandbox with a test clock: its days end at its clock's today.
  days: await balanceDays(db, merchant, input.days, merchant.sandbox?.clockNow?.getTime()),
}));
