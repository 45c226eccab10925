import { ApiError, simulatedOutcome, type BatchItem, type CreatedBy, type PayoutBatch, type PayoutBatchListItem } from '../../contract';
import type { Queryable } from '../../db/types';
import { approvalExpirySeconds, startStatus } from './approval-policy';
import { holderForPayout } from './bank-accounts';
import { createdBy } from '../pipeline/caller';
import { assertPayoutWithinLimit } from './payout-limit';
import { startEventCtes } from './withdraw-statement';
import { availableNow } from './withdrawal';
import { newId } from '../pipeline/random-id';
import { batchCounts } from './batch-counts';
import { batchPayoutIds, compactBatchAnswer, expandBatchAnswer } from './batch-answer';
import { type ActionContext, readAction, storedInline, writeAction } from '../pipeline/action';
import { listPage } from '../pipeline/list-page';
import { storeAnswerSql } from '../pipeline/stored-answer';

interface BatchRow {
  id: string;
  currency: string;
  total_amount: number;
  payout_count: number;
  created_at: Date;
  created_by: CreatedBy;
}

const BATCH_COLUMNS = 'id, currency, total_amount, payout_count, created_at, created_by';

/**
 * create_payout_batch: every item was validated by the contract before this runs
 * (a bad one is a 400 naming `payouts[n].field`, and nothing is written). Then one
 * statement reserves the total against `available` in one conditional update and
 * writes the batch, a payout and a ledger entry per item (set-based, in item
 * order, each entry with the balance as if debited one by one) and, under a key,
 * the stored answer; or, when the total is not covered, writes nothing
 * (insufficient_funds for the whole batch). Each payout then settles on its own.
 */
export const createPayoutBatch = writeAction(
  'create_payout_batch',
  async ({ db, merchant, key, settings, inline }, input) => {
    input.payouts.forEach((p: BatchItem, i: number) => assertPayoutWithinLimit(key, p.amount, `payouts[${i}].amount`));
    const batchId = newId('pb');
    const items = input.payouts.map((p: BatchItem, i: number) => {
      const outcome = simulatedOutcome(p.account_number);
      // Each item as a withdrawal would be: its holder's name checked, and caught by the approval policy on its own amount.
      const holder = holderForPayout(p.bank_code, p.account_number, p.account_holder_name, `payouts[${i}].account_holder_name`);
      const status = startStatus(merchant, key, p.amount);
      return {
        ...p,
        id: newId('po'),
        delay: outcome.kind === 'slow' ? outcome.delaySeconds : settings.settlementDelaySeconds,
        holder,
        status,
        expiry: status === 'awaiting_approval' ? approvalExpirySeconds(settings) : null,
      };
    });
    const total = items.reduce((sum, p) => sum + p.amount, 0);
    const waiting = items.filter((p) => p.status === 'awaiting_approval');
    const waitingTotal = waiting.reduce((sum, p) => sum + p.amount, 0);
    const answer: PayoutBatch | undefined = inline && {
      object: 'payout_batch',
      id: batchId,
      status: 'processing',
      currency: merchant.currency,
      total_amount: total,
      payout_count: items.length,
      counts: {
        pending: items.length - waiting.length,
        paid: 0,
        failed: 0,
        awaiting_approval: waiting.length,
        rejected: 0,
        expired: 0,
        returned: 0,
      },
      payout_ids: items.map((p) => p.id),
      created_at: inline.now.toISOString(),
      livemode: false,
      created_by: createdBy(key),
    };
    const params: unknown[] = [
      merchant.id,
      total,
      batchId,
      merchant.currency,
      items.length,
      items.map((p) => p.id),
      items.map((p) => p.amount),
      items.map((p) => p.bank_code),
      items.map((p) => p.account_number),
      items.map((p) => p.reference ?? null),
      items.map((p) => p.delay),
      JSON.stringify(createdBy(key)),
      items.map((p) => p.status),
      items.map((p) => p.holder),
      items.map((p) => p.expiry),
      waitingTotal,
    ];
    // Stored without its payout ids (the payouts hold them): expandStored puts them back on a replay (batch-answer.ts).
    const stored =
      answer && inline
        ? storeAnswerSql(inline.merchantId, inline.key, compactBatchAnswer(answer), answer.id, params.length + 1, 'batch')
        : undefined;
    const [row] = await db.query<BatchRow>(
      `WITH bal AS (
         UPDATE balances SET available = available - $2, pending_payouts = pending_payouts + $2 - $16::bigint,
           awaiting_approval = awaiting_approval + $16::bigint, updated_at = app_now()
         WHERE merchant_id = $1 AND available >= $2 RETURNING available),
       items AS (
         SELECT * FROM unnest($6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::float8[], $13::text[], $14::text[], $15::float8[])
           WITH ORDINALITY AS i(id, amount, bank_code, account_number, reference, delay, status, holder, expiry, n)),
       batch AS (
         INSERT INTO payout_batches (id, merchant_id, currency, total_amount, payout_count, created_by)
         SELECT $3, $1, $4, $2, $5, $12::json FROM bal RETURNING ${BATCH_COLUMNS}),
       -- Who made the batch is kept once, on the batch (migration 075); a payout that waits for approval keeps its own too,
       -- for its events' copies below (this statement cannot see the batch row it writes).
       po AS (
         INSERT INTO payouts (id, merchant_id, amount, currency, bank_code, account_number, status, settle_after, batch_id, reference, created_by,
                              account_holder_name, approval_expires_at)
         SELECT i.id, $1, i.amount, $4, i.bank_code, i.account_number, i.status, app_now() + make_interval(secs => i.delay), $3, i.reference,
                CASE WHEN i.expiry IS NOT NULL THEN $12::json END,
                i.holder, app_now() + make_interval(secs => i.expiry)
         FROM items i, bal ORDER BY i.n
         RETURNING *),
       ${startEventCtes('$1')},
       entries AS (
         INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id)
         SELECT $1, -i.amount, bal.available + $2 - SUM(i.amount) OVER (ORDER BY i.n), 'payout', i.id
         FROM items i, bal ORDER BY i.n)${
           stored
             ? `,
       stored AS (${stored.sql})`
             : ''
         }
       SELECT * FROM batch`,
      stored ? [...params, ...stored.params] : params,
    );
    if (!row) {
      const available = await availableNow(db, merchant.id);
      throw new ApiError(
        'insufficient_funds',
        `The available balance ${available} is lower than the batch's total ${total}: ${total - available} is missing; no payout of it was created.`,
        'payouts',
      );
    }
    return answer ? storedInline(answer) : batchWithIds(db, merchant.id, row);
  },
  { atomic: true, expandStored: expandBatchAnswer },
);

export const getPayoutBatch = readAction('get_payout_batch', async (ctx, input) => {
  const [row] = await ctx.db.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE id = $1 AND merchant_id = $2`, [
    input.id,
    ctx.merchant.id,
  ]);
  if (!row) throw new ApiError('not_found', `No such payout batch: ${input.id}`, 'id');
  return batchWithIds(ctx.db, ctx.merchant.id, row);
});

export const listPayoutBatches = readAction('list_payout_batches', async (ctx: ActionContext, input) => {
  const page = await listPage<BatchRow>(ctx.db, {
    table: 'payout_batches',
    columns: BATCH_COLUMNS,
    merchantId: ctx.merchant.id,
    limit: input.limit,
    startingAfter: input.starting_after,
  });
  return { ...page, data: await batchItems(ctx.db, page.data) };
});

/** One batch with its payouts' ids in item order (at most 1,000, through the batch's index). */
async function batchWithIds(db: Queryable, merchantId: string, row: BatchRow): Promise<PayoutBatch> {
  const [item] = await batchItems(db, [row]);
  const { created_at, livemode, created_by, ...head } = item!;
  // payout_ids where the contract puts it (before created_at): a create answer built here is byte-identical to an inline one.
  return { ...head, payout_ids: await batchPayoutIds(db, row.id, merchantId), created_at, livemode, created_by };
}

/** Batches as a list shows them: counts by status from the kept figures (batch-counts.ts), never from their payouts. */
async function batchItems(db: Queryable, rows: BatchRow[]): Promise<PayoutBatchListItem[]> {
  if (rows.length === 0) return [];
  const counts = await batchCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const c = counts.get(r.id)!;
    return {
      object: 'payout_batch',
      id: r.id,
      status: c.pending + c.awaiting_approval > 0 ? 'processing' : 'completed',
      currency: r.currency,
      total_amount: r.total_amount,
      payout_count: r.payout_count,
      counts: c,
      created_at: new Date(r.created_at).toISOString(),
      livemode: false,
      // Batches made before migration 075 did not keep it.
      created_by: r.created_by ?? null,
    };
  });
}
