import { z } from 'zod';

/**
 * Field schemas and value lists of the API's actions. Pure zod, no Node imports:
 * the console's payout form validates with `payoutFields` in the browser as the
 * API does, and the OpenAPI document is generated from the same schemas.
 */

/** Test-mode banks. */
export const TEST_BANK_CODES = ['BCA', 'BNI', 'BRI', 'MANDIRI', 'PERMATA', 'CIMB', 'BSI', 'DANAMON'] as const;
export type BankCode = (typeof TEST_BANK_CODES)[number];

/** Per payout, in IDR (whole rupiah: IDR is used without a minor unit). */
export const PAYOUT_LIMITS = { min: 10_000, max: 100_000_000 } as const;

/** Account numbers: digits only, 6 to 20 of them. */
export const ACCOUNT_NUMBER_PATTERN = /^[0-9]{6,20}$/;

export const PAYOUT_STATUSES = [
  'pending',
  'paid',
  'failed',
  // Payout approvals: waiting for a second key, and the two ways a wait ends without money leaving.
  'awaiting_approval',
  'rejected',
  'expired',
  // Paid, then sent back by the receiving bank: the amount is back in available (a payout_return entry).
  'returned',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
/** `refunded`: paid, then refunded in full (amount_refunded = amount); a partly refunded one stays `complete`. */
export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired', 'refunded'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

export const PAYOUT_BATCH_STATUSES = ['processing', 'completed'] as const;

export const payoutStatusField = z.enum(PAYOUT_STATUSES, { error: `status must be ${PAYOUT_STATUSES.join(', ')}` });
export const amountField = (min: number, max: number) =>
  z
    .int({ error: (i) => (i.input === undefined ? 'amount is required' : 'amount must be an integer in the smallest currency unit') })
    .min(min, { error: `amount must be at least ${min}` })
    .max(max, { error: `amount must be at most ${max}` });

/** An account holder's name as a merchant types it (matching rule: lib/contract/account-names.ts). */
export const accountHolderNameField = z
  .string({ error: 'account_holder_name must be a string' })
  .trim()
  .min(1, { error: 'account_holder_name must not be empty' })
  .max(100, { error: 'account_holder_name must be at most 100 characters' });

export const payoutFields = {
  amount: amountField(PAYOUT_LIMITS.min, PAYOUT_LIMITS.max),
  bank_code: z.enum(TEST_BANK_CODES, { error: `bank_code must be one of ${TEST_BANK_CODES.join(', ')}` }),
  account_number: z
    .string({ error: 'account_number must be a string of digits' })
    .regex(ACCOUNT_NUMBER_PATTERN, { error: 'account_number must be 6 to 20 digits' }),
  /** The name the sender expects on the account: the payout is refused (account_name_mismatch) unless the bank's matches. */
  account_holder_name: accountHolderNameField.optional(),
};

export const payoutInputSchema = z.strictObject(payoutFields);

/** Items of a batch payout: a payout's fields and the merchant's own reference. */
export const MAX_BATCH_PAYOUTS = 1000;
export const batchItemSchema = z.strictObject({
  ...payoutFields,
  reference: z
    .string({ error: 'reference must be a string' })
    .min(1, { error: 'reference must not be empty' })
    .max(100, { error: 'reference must be at most 100 characters' })
    .optional(),
});
export type BatchItem = z.infer<typeof batchItemSchema>;
export type PayoutInput = z.infer<typeof payoutInputSchema>;

/**
 * The one id format: a type prefix, `_`, then 1 to 96 letters and digits (the ids made here have 24).
 * The API's fields, the console's routes and pages and the browser's filters all check ids with this.
 */
export const idPattern = (prefix: string): RegExp => new RegExp(`^${prefix}_[0-9A-Za-z]{1,96}$`);
export const isId = (prefix: string, value: string): boolean => idPattern(prefix).test(value);

const resourceId = (prefix: string) =>
  z
    .string({ error: 'id must be a string' })
    .min(1, { error: 'id must not be empty' })
    .max(100, { error: 'id is too long' })
    .refine((v) => v.startsWith(`${prefix}_`), { error: `id must start with ${prefix}_`, abort: true })
    .regex(idPattern(prefix), { error: `id must be ${prefix}_ followed by letters and digits` });

export const listFields = (prefix: string) => ({
  limit: z
    .int({ error: 'limit must be an integer' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100, { error: 'limit must be at most 100' })
    .optional(),
  starting_after: resourceId(prefix).optional(),
});

export const idField = resourceId;

/** `created_at` bounds of a list or a summary: from `created_gte` (inclusive) to `created_lt` (exclusive). */
export const createdRangeFields = {
  created_gte: z.iso.datetime({ offset: true, error: 'created_gte must be an ISO 8601 time with an offset' }).optional(),
  created_lt: z.iso.datetime({ offset: true, error: 'created_lt must be an ISO 8601 time with an offset' }).optional(),
};

/** The filters of list_payouts and summarize_payouts, so a list and its total always agree. */
export const payoutFilterFields = {
  status: payoutStatusField.optional(),
  ...createdRangeFields,
  account_last4: z
    .string({ error: 'account_last4 must be a string of 4 digits' })
    .regex(/^[0-9]{4}$/, { error: 'account_last4 must be exactly 4 digits' })
    .optional(),
};

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .max(2048, { error: 'must be at most 2048 characters' });

/** Per checkout session, in IDR. */
export const CHECKOUT_LIMITS = { min: 1_000, max: 1_000_000_000 } as const;

export const checkoutFields = {
  amount: amountField(CHECKOUT_LIMITS.min, CHECKOUT_LIMITS.max),
  description: z
    .string({ error: 'description must be a string' })
    .min(1, { error: 'description must not be empty' })
    .max(500, { error: 'description must be at most 500 characters' })
    .optional(),
  success_url: httpUrl.optional(),
  cancel_url: httpUrl.optional(),
  /** Seconds until the session expires: 30 minutes to 24 hours, 24 hours by default. */
  expires_in: z
    .int({ error: 'expires_in must be an integer number of seconds' })
    .min(1800, { error: 'expires_in must be at least 1800' })
    .max(86_400, { error: 'expires_in must be at most 86400' })
    .optional(),
};
