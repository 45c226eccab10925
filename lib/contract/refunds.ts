import { z } from 'zod';
import { createdBySchema } from './api-keys';
import { amountField, CHECKOUT_LIMITS, createdRangeFields, idField, listFields } from './fields';
import { listOf } from './objects';

/**
 * Refunds of paid checkout sessions (docs/api.md, "Refunds"). A refund takes its
 * amount out of `available` when it is created and waits in `pending_refunds`
 * until it settles, like a payout: `succeeded` for good, or `failed` with the
 * money back in `available`.
 */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Test mode: this card pays, and every refund of a session it paid fails (Stripe's 4000 0000 0000 5126). */
export const REFUND_FAILING_TEST_CARD = '4000000000005126';

/** Why a refund fails, and what the API says about it. */
export const REFUND_FAILURES = {
  expired_or_canceled_card: "The customer's card was canceled or expired: the bank returned the refund.",
} as const;
export type RefundFailureCode = keyof typeof REFUND_FAILURES;

const refundStatusField = z.enum(REFUND_STATUSES, { error: `status must be ${REFUND_STATUSES.join(', ')}` });

export const refundReasonField = z
  .string({ error: 'reason must be a string' })
  .trim()
  .min(1, { error: 'reason must not be empty' })
  .max(500, { error: 'reason must be at most 500 characters' });

export const refundFields = {
  checkout_session_id: idField('cs'),
  /** Omitted: what is left of the payment. */
  amount: amountField(1, CHECKOUT_LIMITS.max).optional(),
  reason: refundReasonField.optional(),
};

export const refundFilterFields = {
  checkout_session_id: idField('cs').optional(),
  status: refundStatusField.optional(),
  ...createdRangeFields,
};

export const simulateRefundFields = {
  id: idField('re'),
  /** Omitted: what the test card of the session dictates (REFUND_FAILING_TEST_CARD fails, any other succeeds). */
  outcome: z.enum(['succeeded', 'failed'], { error: 'outcome must be succeeded or failed' }).optional(),
};

export const refundListFields = { ...listFields('re'), ...refundFilterFields };

const isoTime = z.iso.datetime({ offset: true });

export const refundSchema = z.object({
  object: z.literal('refund'),
  id: z.string(),
  checkout_session_id: z.string(),
  amount: z.int().positive(),
  currency: z.string().length(3),
  status: z.enum(REFUND_STATUSES),
  reason: z.string().nullable(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  created_at: isoTime,
  /** When it succeeded or failed; null while pending. */
  settled_at: isoTime.nullable(),
  created_by: createdBySchema,
  livemode: z.boolean(),
});
export const refundListSchema = listOf(refundSchema);
export type Refund = z.infer<typeof refundSchema>;
