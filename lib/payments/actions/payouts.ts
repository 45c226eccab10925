import { ApiError, simulatedOutcome } from '../../contract';
import { reserveForPayout } from '../ledger';
import { newId } from '../random-id';
import { PAYOUT_COLUMNS, payoutObject, type PayoutRow } from '../serialize';
import { implement } from './action';
import { listPage } from './list-page';

/**
 * withdraw: moves the amount from `available` to `pending_payouts` and creates a
 * pending payout, in the request's transaction. The move is a conditional update,
 * so concurrent withdrawals can never take the balance below zero; the ledger
 * entry records the change of `available`.
 */
export const withdraw = implement('withdraw', async ({ db, merchant, settings }, input) => {
  const id = newId('po');
  const reserved = await reserveForPayout(db, merchant.id, input.amount, id);
  if (!reserved) {
    throw new ApiError('insufficient_funds', `The available balance is lower than the amount ${input.amount}.`, 'amount');
  }
  const outcome = simulatedOutcome(input.account_number);
  const delay = outcome.kind === 'slow' ? outcome.delaySeconds : settings.settlementDelaySeconds;
  const [row] = await db.query<PayoutRow>(
    `INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', now() + make_interval(secs => $7))
     RETURNING ${PAYOUT_COLUMNS}`,
    [id, merchant.id, input.amount, merchant.currency, input.bank_code, input.account_number, delay],
  );
  return payoutObject(row!);
});

export const getPayout = implement('get_payout', async ({ db, merchant }, input) => {
  const [row] = await db.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 AND merchant_id = $2`, [
    input.id, merchant.id,
  ]);
  // Another merchant's payout is as missing as one that never existed.
  if (!row) throw new ApiError('not_found', `No such payout: ${input.id}`, 'id');
  return payoutObject(row);
});

export const listPayouts = implement('list_payouts', async ({ db, merchant }, input) => {
  const page = await listPage<PayoutRow>(db, {
    table: 'payouts',
    columns: PAYOUT_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
    filter: input.status ? { sql: 'status = $4', value: input.status } : undefined,
  });
  return { ...page, data: page.data.map(payoutObject) };
});
