import { ApiError } from '../../contract';
import { createRefund } from './refunds';
import { settleRefund } from './refund-settlement';
import { REFUND_COLUMNS, refundObject, type RefundRow } from './refund-object';
import { readAction, writeAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';

/** create_refund: the bound on the session and the debit of available (refunds.ts). */
export const createRefundAction = writeAction('create_refund', async (ctx, input) => createRefund(ctx, input));

export const getRefund = readAction('get_refund', async ({ db, merchant }, input) => {
  const [row] = await db.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = $1 AND merchant_id = $2`, [
    input.id,
    merchant.id,
  ]);
  // Another merchant's refund is as missing as one that never existed.
  if (!row) throw new ApiError('not_found', `No such refund: ${input.id}`, 'id');
  return refundObject(row);
});

export const listRefunds = readAction('list_refunds', async ({ db, merchant }, input) => {
  const page = await listPage<RefundRow>(db, {
    table: 'refunds',
    columns: REFUND_COLUMNS,
    merchantId: merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
    where: { checkout_session_id: input.checkout_session_id, status: input.status },
    conditions: [
      { sql: 'created_at >= ?::timestamptz', value: input.created_gte },
      { sql: 'created_at < ?::timestamptz', value: input.created_lt },
    ],
  });
  return { ...page, data: page.data.map(refundObject) };
});

/** simulate_refund: settles a pending refund now. Locked first, so the settlement job cannot settle it too. */
export const simulateRefund = writeAction('simulate_refund', async ({ db, merchant }, input) => {
  const [due] = await db.query<{ status: string; fails: boolean }>(
    `SELECT status, fails FROM refunds WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
    [input.id, merchant.id],
  );
  if (!due) throw new ApiError('not_found', `No such refund: ${input.id}`, 'id');
  if (due.status !== 'pending') throw new ApiError('refund_not_pending', `Refund ${input.id} has already ${due.status}.`, 'id');
  await settleRefund(db, input.id, input.outcome ?? (due.fails ? 'failed' : 'succeeded'));
  const [row] = await db.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = $1`, [input.id]);
  return refundObject(row!);
});
