import { z } from 'zod';
import { createdBySchema } from './api-keys';
import { CHECKOUT_SESSION_STATUSES, PAYOUT_BATCH_STATUSES, PAYOUT_STATUSES } from './fields';

/**
 * The objects the API answers with. The SDK and the console parse answers with
 * them (unknown fields are dropped, so nothing unasked-for reaches a browser);
 * the OpenAPI document describes them; the integration suite checks every answer
 * of the core against them.
 */
const money = z.int().nonnegative();
const currency = z.string().length(3);
const isoTime = z.iso.datetime({ offset: true });
/** The key that approved or rejected a payout (a snapshot: kept after the key is revoked). */
const actingKeySchema = z.object({ key_id: z.string(), key_name: z.string().nullable() });

export const balanceSchema = z.object({
  object: z.literal('balance'),
  merchant: z.object({ id: z.string(), name: z.string() }),
  currency,
  available: money,
  pending_payouts: money,
  /** Refunds created and not yet settled: out of available, not yet back with the customer. */
  pending_refunds: money,
  /** Payouts waiting for approval: out of available, not yet on their way; available + pending_payouts + awaiting_approval is the merchant's money. */
  awaiting_approval: money,
  /** Only when asked with `as_of`: the instant `available` is given at (the ledger keeps `available`; the other figures are the current ones). */
  as_of: z.iso.datetime({ offset: true }).optional(),
  livemode: z.boolean(),
});

export const payoutSchema = z.object({
  object: z.literal('payout'),
  id: z.string(),
  amount: money,
  currency,
  bank_code: z.string(),
  account_last4: z.string().max(4),
  status: z.enum(PAYOUT_STATUSES),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  created_at: isoTime,
  settled_at: isoTime.nullable(),
  /** The bank's reference of the transfer, as it appears on the merchant's bank statement; null until paid. Unique per payout. */
  bank_reference: z.string().nullable(),
  /** When the bank paid it (kept once it is returned); null until paid. */
  paid_at: isoTime.nullable(),
  /** When the receiving bank returned it (status returned; the reason in failure_code and failure_message). */
  returned_at: isoTime.nullable(),
  /** The batch it was sent in (create_payout_batch), and the merchant's reference for it. */
  batch_id: z.string().nullable(),
  reference: z.string().nullable(),
  created_by: createdBySchema,
  // Payout approvals and account holders.
  /** The name the bank holds for the account, looked up when the payout was made; null for an account that does not exist. */
  account_holder_name: z.string().nullable(),
  /** When an unapproved payout expires (null: it never waited for approval). */
  approval_expires_at: isoTime.nullable(),
  approved_by: actingKeySchema.nullable(),
  approved_at: isoTime.nullable(),
  rejected_by: actingKeySchema.nullable(),
  rejected_at: isoTime.nullable(),
  rejection_reason: z.string().nullable(),
  livemode: z.boolean(),
});

export const payoutBatchSchema = z.object({
  object: z.literal('payout_batch'),
  id: z.string(),
  /** processing while any of its payouts is pending or awaiting approval; completed once each has ended. */
  status: z.enum(PAYOUT_BATCH_STATUSES),
  currency,
  total_amount: money,
  payout_count: z.int().positive(),
  counts: z.object({
    pending: z.int().nonnegative(),
    paid: z.int().nonnegative(),
    failed: z.int().nonnegative(),
    awaiting_approval: z.int().nonnegative(),
    rejected: z.int().nonnegative(),
    expired: z.int().nonnegative(),
    returned: z.int().nonnegative(),
  }),
  /** Its payouts' ids in item order (get and create only: a list leaves them out; list_payouts { batch_id } pages through them). */
  payout_ids: z.array(z.string()),
  created_at: isoTime,
  livemode: z.boolean(),
  /** The key that made the batch (null for batches made before keys were recorded on batches). */
  created_by: createdBySchema,
});
/** A batch in list_payout_batches: without its up to 1,000 payout ids, so that a page costs its batches, not their payouts. */
export const payoutBatchListItemSchema = payoutBatchSchema.omit({ payout_ids: true });

export const checkoutSessionSchema = z.object({
  object: z.literal('checkout_session'),
  id: z.string(),
  url: z.url(),
  status: z.enum(CHECKOUT_SESSION_STATUSES),
  amount: money,
  currency,
  description: z.string().nullable(),
  success_url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  expires_at: isoTime,
  created_at: isoTime,
  completed_at: isoTime.nullable(),
  /** The last four digits of the card that paid it; null until paid. */
  card_last4: z.string().nullable(),
  /** The sum of its refunds that did not fail (pending or succeeded); equal to amount once status is refunded. */
  amount_refunded: money,
  created_by: createdBySchema,
  livemode: z.boolean(),
});

/** What summarize_payouts answers: the count and total of the payouts a filter selects. */
export const payoutSummarySchema = z.object({
  object: z.literal('payout_summary'),
  count: z.int().nonnegative(),
  total_amount: money,
  currency,
});

/** Cursor pages, newest first: the shape every list_* action returns. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });
export const payoutListSchema = listOf(payoutSchema);
export const checkoutSessionListSchema = listOf(checkoutSessionSchema);
export const payoutBatchListSchema = listOf(payoutBatchListItemSchema);

export type Balance = z.infer<typeof balanceSchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;
export type PayoutSummary = z.infer<typeof payoutSummarySchema>;
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;
export type PayoutBatchListItem = z.infer<typeof payoutBatchListItemSchema>;
export type List<T> = { object: 'list'; data: T[]; has_more: boolean };
