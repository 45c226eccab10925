import { ApiError, simulatedOutcome } from '../../contract';
import { newId } from '../random-id';
import { PAYOUT_COLUMNS, payoutObject, type PayoutRow } from '../serialize';
import { assertPayoutWithinLimit, createdBy } from '../permissions';
import { implement, storedInline } from './action';
import { conditionsSql, listPage } from './list-page';
import { payoutFilterConditions } from './payout-filters';
import { parseMoneyInt } from '../../db/int8';
import { withdrawStatement } from '../withdraw-statement';

/**
 * withdraw: moves the amount from `available` to `pending_payouts` and creates a
 * pending payout with its ledger entry, in one statement (withdraw-statement.ts).
 * Under an idempotency key the answer is known before that statement (the payout's
 * id and the transaction's timestamp are), so the statement stores it too and the
 * balance row stays locked for one round trip only.
 */
export const withdraw = implement(
  'withdraw',
  async ({ db, merchant, key, settings, inline }, input) => {
    assertPayoutWithinLimit(key, input.amount, 'amount');
    const payoutId = newId('po');
    const by = createdBy(key);
    const outcome = simulatedOutcome(input.account_number);
    const settleDelaySeconds = outcome.kind === 'slow' ? outcome.delaySeconds : settings.settlementDelaySeconds;
    const answer = inline
      ? payoutObject({
          id: payoutId, amount: input.amount, currency: merchant.currency, bank_code: input.bank_code, account_number: input.account_number,
          status: 'pending', failure_code: null, failure_message: null, created_at: inline.now, settled_at: null, batch_id: null, reference: null,
          created_by: by,
        })
      : undefined;
    const { sql, params } = withdrawStatement(
      { payoutId, merchantId: merchant.id, amount: input.amount, currency: merchant.currency, bankCode: input.bank_code, accountNumber: input.account_number, settleDelaySeconds, createdBy: JSON.stringify(by) },
      answer && inline ? (n, cte) => inline.store(JSON.stringify(answer), n, cte) : undefined,
    );
    const [row] = await db.query<PayoutRow>(sql, params);
    if (!row) throw new ApiError('insufficient_funds', `The available balance is lower than the amount ${input.amount}.`, 'amount');
    return answer ? storedInline(answer) : payoutObject(row);
  },
  { atomic: true },
);

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
    where: { batch_id: input.batch_id },
    conditions: payoutFilterConditions(input),
  });
  return { ...page, data: page.data.map(payoutObject) };
});

/** summarize_payouts: the count and total of list_payouts' filter, in one aggregate query. */
export const summarizePayouts = implement('summarize_payouts', async ({ db, merchant }, input) => {
  const params: unknown[] = [merchant.id];
  const where = conditionsSql(payoutFilterConditions(input), params);
  const [row] = await db.query<{ count: number | string; total: number | string }>(
    `SELECT count(*) AS count, COALESCE(sum(amount), 0) AS total FROM payouts WHERE merchant_id = $1${where}`,
    params,
  );
  return {
    object: 'payout_summary' as const,
    count: parseMoneyInt(String(row!.count)),
    total_amount: parseMoneyInt(String(row!.total)),
    currency: merchant.currency,
  };
});
