import { implement } from '../pipeline/action';
import { statementOf, statementPeriod } from './statement';

/** get_statement: a month in the merchant's zone, or an exact period (docs/api.md, "Statements"). */
export const getStatement = implement('get_statement', async ({ db, merchant }, input) => {
  const { from, to } = statementPeriod(merchant.timeZone, input);
  return statementOf(db, merchant, from, to);
});
