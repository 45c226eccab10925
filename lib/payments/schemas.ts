import { z } from 'zod';
import { ACCOUNT_NUMBER_PATTERN, PAYOUT_LIMITS, TEST_BANK_CODES } from './test-banks';

/**
 * Field schemas of the API's actions. Pure zod, no Node imports: the console's
 * payout form validates with `payoutFields` in the browser as the API does.
 */
export const amountField = (min: number, max: number) =>
  z
    .int({ error: (i) => (i.input === undefined ? 'amount is required' : 'amount must be an integer in the smallest currency unit') })
    .min(min, { error: `amount must be at least ${min}` })
    .max(max, { error: `amount must be at most ${max}` });

export const payoutFields = {
  amount: amountField(PAYOUT_LIMITS.min, PAYOUT_LIMITS.max),
  bank_code: z.enum(TEST_BANK_CODES, { error: `bank_code must be one of ${TEST_BANK_CODES.join(', ')}` }),
  account_number: z
    .string({ error: 'account_number must be a string of digits' })
    .regex(ACCOUNT_NUMBER_PATTERN, { error: 'account_number must be 6 to 20 digits' }),
};

export const payoutInputSchema = z.strictObject(payoutFields);
export type PayoutInput = z.infer<typeof payoutInputSchema>;

const resourceId = (prefix: string) =>
  z
    .string({ error: 'id must be a string' })
    .min(1, { error: 'id must not be empty' })
    .max(100, { error: 'id is too long' })
    .refine((v) => v.startsWith(`${prefix}_`), { error: `id must start with ${prefix}_` });

export const listFields = (prefix: string) => ({
  limit: z.int({ error: 'limit must be an integer' }).min(1, { error: 'limit must be at least 1' }).max(100, { error: 'limit must be at most 100' }).optional(),
  starting_after: resourceId(prefix).optional(),
});

export const idField = resourceId;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .max(2048, { error: 'must be at most 2048 characters' });

export const checkoutFields = {
  amount: amountField(1_000, 1_000_000_000),
  description: z.string({ error: 'description must be a string' }).min(1, { error: 'description must not be empty' }).max(500, { error: 'description must be at most 500 characters' }).optional(),
  success_url: httpUrl.optional(),
  cancel_url: httpUrl.optional(),
  /** Seconds until the session expires: 30 minutes to 24 hours, 24 hours by default. */
  expires_in: z.int({ error: 'expires_in must be an integer number of seconds' }).min(1800, { error: 'expires_in must be at least 1800' }).max(86_400, { error: 'expires_in must be at most 86400' }).optional(),
};
