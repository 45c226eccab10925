import { z } from 'zod';
import { createdRangeFields } from './fields';
import { listOf } from './objects';

/** The ledger as the API shows it: one balance transaction per change of `available`. */
export const BALANCE_TRANSACTION_TYPES = [
  'opening_balance',
  'adjustment',
  'payout',
  'payout_reversal',
  'checkout_payment',
  'topup',
  'refund',
  'refund_reversal',
  // A paid payout the receiving bank sent back: its amount returns to available.
  'payout_return',
] as const;

export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** The types with at most one entry per source object (a unique index each): list_balance_transactions' `source` filter takes one of them. */
export const SOURCED_TYPES = ['payout', 'payout_reversal', 'payout_return', 'checkout_payment', 'refund', 'refund_reversal'] as const;

const isoTime = z.iso.datetime({ offset: true });

/** A balance transaction's id names its ledger entry by number: `txn_42`. */
export const balanceTransactionId = (entry: number | string) => `txn_${entry}`;
/** The ledger entry a balance transaction id names, or null when it names none. */
export function ledgerEntryOf(id: string): number | null {
  const m = /^txn_([1-9][0-9]{0,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

export const balanceTransactionSchema = z.object({
  id: z.string(),
  object: z.literal('balance_transaction'),
  /** Signed, in the smallest unit: a payout is negative, a payment or reversal positive. */
  amount: z.number().int(),
  currency: z.string(),
  /** `available` right after this entry. */
  balance_after: z.number().int(),
  type: z.enum(BALANCE_TRANSACTION_TYPES),
  /** The object that caused it: a payout (po_…), a checkout session (cs_…), a refund (re_…), or the merchant for an opening balance. */
  source: z.string(),
  /** A payout's line (its payout, reversal or return): the payout's bank reference once it was paid, to match the bank statement; null otherwise. */
  bank_reference: z.string().nullable(),
  created_at: isoTime,
});
export const balanceTransactionListSchema = listOf(balanceTransactionSchema);
export type BalanceTransaction = z.infer<typeof balanceTransactionSchema>;

export const balanceTransactionFilters = {
  type: z.enum(BALANCE_TRANSACTION_TYPES, { error: `type must be one of ${BALANCE_TRANSACTION_TYPES.join(', ')}` }).optional(),
  /** The entry of this type that this object caused (a payout's reversal or return, a session's payment): needs `type`, one of SOURCED_TYPES. */
  source: z
    .string({ error: 'source must be the id of the object that caused the entry' })
    .regex(/^[a-z]{2,4}_[0-9A-Za-z]{1,64}$/, { error: 'source must be the id of the object that caused the entry (po_…, cs_…, re_…)' })
    .optional(),
  ...createdRangeFields,
};

/** Days summarize_balance covers at most (the balance chart shows 30). */
export const MAX_BALANCE_DAYS = 90;

/** One day of the balance in the merchant's zone: what came in and went out, and the balance it closed at. */
export const balanceDaySchema = z.object({
  /** The day in the merchant's zone, YYYY-MM-DD. */
  day: z.string(),
  money_in: z.number().int().nonnegative(),
  /** Money out as a positive figure. */
  money_out: z.number().int().nonnegative(),
  /** Balance transactions that day. */
  entries: z.int().nonnegative(),
  /** `available` after the day's last balance transaction (for a day without one, the balance carried into it). */
  closing_balance: z.number().int().nonnegative(),
});

/** What summarize_balance answers: the last `days` days in the merchant's zone, oldest first, today last. */
export const balanceSummarySchema = z.object({
  object: z.literal('balance_summary'),
  currency: z.string(),
  /** The zone the days are read in (the merchant's). */
  time_zone: z.string(),
  days: z.array(balanceDaySchema),
});
export type BalanceSummary = z.infer<typeof balanceSummarySchema>;

export const balanceSummaryFields = {
  days: z
    .int({ error: 'days must be an integer' })
    .min(1, { error: 'days must be at least 1' })
    .max(MAX_BALANCE_DAYS, { error: `days must be at most ${MAX_BALANCE_DAYS}` }),
};
