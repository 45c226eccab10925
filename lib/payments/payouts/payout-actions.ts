import { ApiError } from '../../contract';
import { listObject } from '../pipeline/api-object';
import { PAYOUT_COLUMNS, payoutObject, type PayoutRow } from './payout-object';
import { readAction, writeAction } from '../pipeline/action';
import { conditionsSql, listPage } from '../pipeline/list-page';
import { payoutFilterConditions } from './payout-filters';
import { parseMoneyInt } from '../../db/int8';
import { planWithdrawal } from './withdraw-plan';
import { writeWithdrawal } from './withdrawal';
import { withdrawGroupWriter } from './withdraw-group';
import { withdrawInOneStatement } from './withdraw-one-statement';
import { identityRange, payoutFigures } from '../ledger/daily-figures';

/**
 * withdraw: moves the amount from `available` to `pending_payouts` and creates a
 * pending payout with its ledger entry and event. Planned before the database
 * (withdraw-plan.ts), then written alone: under a key as one statement that is its own transaction
 * (withdraw-one-statement.ts), else in one statement of a transaction (withdrawal.ts); or with concurrent
 * ones in a group (withdraw-group.ts).
 */
export const withdraw = writeAction('withdraw', writeWithdrawal, {
  plan: planWithdrawal,
  atomic: true,
  group: withdrawGroupWriter,
  oneStatement: withdrawInOneStatement,
});

export const getPayout = readAction('get_payout', async ({ db, merchant }, input) => {
  const [row] = await db.query<PayoutRow>(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 AND merchant_id = $2`, [
    input.id,
    merchant.id,
  ]);
  // Another merchant's payout is as missing as one that never existed.
  if (!row) throw new ApiError('not_found', `No such payout: ${input.id}`, 'id');
  return payoutObject(row);
});

export const listPayouts = readAction('list_payouts', async ({ db, merchant }, input) => {
  // A date filter is also a range of seq, the list's order: a page deep in the dates is a range scan.
  const range =
    input.created_gte || input.created_lt
      ? await identityRange(db, 'payouts', merchant.id, input.created_gte, input.created_lt)
      : undefined;
  if (range?.empty) return listObject([], false);
  // No payout index holds `status` (settlement is a HOT update): a status filter is read through payout_states,
  // which holds every payout (migration 082) and its last four (089). Without a batch (with a date range and a
  // search by last four at most), the page is the newest rows of its (merchant_id, state, seq) index, or of
  // (merchant_id, state, account_last4, seq) with a search, limited there: a subquery planned apart (it has its
  // own LIMIT) walks that index and nothing else, where a join could walk the payouts instead, across every newer
  // payout of other statuses (a backlog of pending ones on top of the paid, say). With a batch, the batch's own
  // index leads (at most 1,000 payouts) and each is looked up in payout_states by seq.
  const byState = input.status !== undefined;
  const stateIndexLeads = byState && input.batch_id === undefined;
  const page = await listPage<PayoutRow>(db, {
    table: 'payouts',
    from: !byState
      ? undefined
      : stateIndexLeads
        ? (bind) => `payouts JOIN (SELECT seq FROM payout_states WHERE merchant_id = $1 AND state = ${bind(input.status)}
            ${input.account_last4 === undefined ? '' : `AND account_last4 = ${bind(input.account_last4)}`}
            AND ($2::bigint IS NULL OR seq < $2::bigint) AND seq BETWEEN ${bind(range?.low ?? 0)} AND ${bind(range?.high ?? Number.MAX_SAFE_INTEGER)}
            ORDER BY seq DESC LIMIT $3) s USING (seq)`
        : (bind) => `payouts JOIN (SELECT seq FROM payout_states WHERE state = ${bind(input.status)}) s USING (seq)`,
    columns: PAYOUT_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
    where: { batch_id: input.batch_id },
    // A batch's payouts through the batch's index alone (one merchant's, checked on the way).
    walk: { column: 'batch_id', value: input.batch_id },
    // A batch's rows come from its index (at most 1,000, then sorted), however deep the batch lies.
    orderBy: input.batch_id === undefined ? 'seq' : 'seq + 0',
    conditions: [
      ...payoutFilterConditions(input),
      { sql: 'seq >= ?::bigint', value: range?.low },
      { sql: 'seq <= ?::bigint', value: range?.high },
    ],
  });
  return { ...page, data: page.data.map(payoutObject) };
});

/**
 * summarize_payouts: the count and total of list_payouts' filter. A search by last four sums its
 * matches through their index (a handful of payouts per account); any other filter reads the
 * per-day figures, plus the payouts of a day cut by a boundary (lib/payments/ledger/daily-figures.ts).
 */
export const summarizePayouts = readAction('summarize_payouts', async ({ db, merchant }, input) => {
  let row: { count: number | string; total: number | string };
  if (input.account_last4 !== undefined) {
    const params: unknown[] = [merchant.id];
    const where = conditionsSql(payoutFilterConditions(input), params);
    [row] = (await db.query<typeof row>(
      `SELECT count(*) AS count, COALESCE(sum(amount), 0) AS total FROM payouts WHERE merchant_id = $1${where}`,
      params,
    )) as [typeof row];
  } else {
    row = await payoutFigures(db, merchant.id, input);
  }
  return {
    object: 'payout_summary' as const,
    count: parseMoneyInt(String(row.count)),
    total_amount: parseMoneyInt(String(row.total)),
    currency: merchant.currency,
  };
});
