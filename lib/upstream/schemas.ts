import { z } from 'zod';

/**
 * What the console accepts from the payment API. Unknown fields are dropped, so
 * nothing the console did not ask for is passed on to the browser.
 */
const money = z.int().nonnegative();
const isoTime = z.iso.datetime({ offset: true });

export const balanceSchema = z.object({
  object: z.literal('balance'),
  merchant: z.object({ id: z.string(), name: z.string() }),
  currency: z.string().length(3),
  available: money,
  pending_payouts: money,
  livemode: z.boolean(),
});

export const payoutSchema = z.object({
  object: z.literal('payout'),
  id: z.string(),
  amount: money,
  currency: z.string().length(3),
  bank_code: z.string(),
  account_last4: z.string().max(4),
  status: z.enum(['pending', 'paid', 'failed']),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  created_at: isoTime,
  settled_at: isoTime.nullable(),
});

export const checkoutSessionSchema = z.object({
  object: z.literal('checkout_session'),
  id: z.string(),
  url: z.url(),
  status: z.enum(['open', 'complete', 'expired']),
  amount: money,
  currency: z.string().length(3),
  description: z.string().nullable(),
  success_url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  expires_at: isoTime,
  created_at: isoTime,
  completed_at: isoTime.nullable(),
});

const listOf = <T extends z.ZodType>(item: T) => z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });
export const payoutListSchema = listOf(payoutSchema);
export const checkoutSessionListSchema = listOf(checkoutSessionSchema);

export type Balance = z.infer<typeof balanceSchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type PayoutStatus = Payout['status'];
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;
export type List<T> = { object: 'list'; data: T[]; has_more: boolean };
