import { ApiError } from '../../contract';
import { readAction } from '../pipeline/action';
import { prepared } from '../../db/prepared';
import { balanceAsOf } from './ledger-figures';

const BALANCE_SQL = prepared(
  'SELECT currency, available, pending_payouts, pending_refunds, awaiting_approval FROM balances WHERE merchant_id = $1',
);

/**
 * get_balance: what can be paid out now, and what is already on its way out; with `as_of`, `available`
 * as it stood at that instant (the ledger keeps `available` only: the other figures stay the current ones).
 */
export const getBalance = readAction('get_balance', async ({ db, merchant }, input) => {
  const asOf = input.as_of === undefined ? undefined : Date.parse(input.as_of);
  if (asOf !== undefined && asOf > (merchant.sandbox?.clockNow?.getTime() ?? Date.now()))
    throw new ApiError('invalid_request', 'as_of must not be in the future', 'as_of');
  // pending_payouts is kept with the balance (lib/payments/ledger/ledger.ts): one row, whatever the backlog.
  const [row] = await db.query<{
    currency: string;
    available: number;
    pending_payouts: number;
    pending_refunds: number;
    awaiting_approval: number;
  }>(BALANCE_SQL, [merchant.id]);
  if (!row) throw new Error(`merchant ${merchant.id} has no balance row`);
  const available = asOf === undefined ? row.available : await balanceAsOf(db, merchant.id, asOf);
  return {
    object: 'balance',
    merchant: { id: merchant.id, name: merchant.name },
    currency: row.currency,
    available,
    pending_payouts: row.pending_payouts,
    pending_refunds: row.pending_refunds,
    awaiting_approval: row.awaiting_approval,
    ...(asOf === undefined ? {} : { as_of: new Date(asOf).toISOString() }),
    livemode: false,
  };
});
