import { ApiError, BALANCE_TRANSACTION_TYPES, MAX_STATEMENT_DAYS, monthInZone, type Statement } from '../../contract';
import type { Queryable } from '../../db/types';
import { balanceBefore, rangeFigures } from '../ledger/ledger-figures';

/**
 * A statement of [from, to): `available` just before `from`, the totals of every balance-transaction
 * type of the contract (zeros included) from the ledger figures, and the closing balance as the
 * opening plus those totals, so the two always agree (and, entries being timed in the order the
 * balance changed, it is also `available` just before `to`).
 */
export async function statementOf(
  db: Queryable,
  merchant: { id: string; currency: string; timeZone: string },
  from: number,
  to: number,
): Promise<Statement> {
  const [opening, [figures]] = await Promise.all([balanceBefore(db, merchant.id, from), rangeFigures(db, merchant.id, [{ from, to }])]);
  const totals = Object.fromEntries(
    BALANCE_TRANSACTION_TYPES.map((type) => {
      const f = figures!.get(type);
      return [type, { amount: f ? f.money_in - f.money_out : 0, count: f?.count ?? 0 }];
    }),
  ) as Statement['totals'];
  const net = Object.values(totals).reduce((sum, t) => sum + t.amount, 0);
  return {
    object: 'statement',
    time_zone: merchant.timeZone,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    currency: merchant.currency,
    opening_balance: opening,
    closing_balance: opening + net,
    totals,
  };
}

const DAY_MS = 86_400_000;

/** The period a get_statement request asks for: a month in the merchant's zone, or [from, to); a 400 naming the field otherwise. */
export function statementPeriod(zone: string, input: { month?: string; from?: string; to?: string }): { from: number; to: number } {
  if (input.month !== undefined) {
    if (input.from !== undefined || input.to !== undefined) {
      throw new ApiError('invalid_request', 'Give either month or from and to, not both', input.from !== undefined ? 'from' : 'to');
    }
    return monthInZone(input.month, zone);
  }
  if (input.from === undefined)
    throw new ApiError('invalid_request', 'Give month (YYYY-MM), or from and to', input.to === undefined ? 'month' : 'from');
  if (input.to === undefined) throw new ApiError('invalid_request', 'to is required with from', 'to');
  const from = Date.parse(input.from);
  const to = Date.parse(input.to);
  if (!(from < to)) throw new ApiError('invalid_request', 'to must be after from', 'to');
  if (to - from > MAX_STATEMENT_DAYS * DAY_MS)
    throw new ApiError('invalid_request', `A statement covers at most ${MAX_STATEMENT_DAYS} days`, 'to');
  return { from, to };
}
