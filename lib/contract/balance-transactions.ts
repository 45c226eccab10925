import { z } from 'zod';
import { createdRangeFields } from './fields';
import { listOf } from './objects';

/** The ledger as the API shows it: one balance transaction per change of `available`. */
export const BALANCE_TRANSACTION_TYPES = ['opening_balance', 'adjustment', 'payout', 'payout_reversal', 'checkout_payment', 'topup', 'refund', 'refund_reversal'] as const;

const isoTime = z.iso.datetime({ offset: true });

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
  created_at: isoTime,
});
export const balanceTransactionListSchema = listOf(balanceTransactionSchema);
export type BalanceTransaction = z.infer<typeof balanceTransactionSchema>;

export const balanceTransactionFilters = {
  type: z.enum(BALANCE_TRANSACTION_TYPES, { error: `type must be one of ${BALANCE_TRANSACTION_TYPES.join(', ')}` }).optional(),
  ...createdRangeFields,
};
