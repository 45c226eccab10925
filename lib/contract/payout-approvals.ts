import { z } from 'zod';
import { ACCOUNT_NUMBER_PATTERN, idField, TEST_BANK_CODES } from './fields';

/**
 * Payout approvals (maker-checker) and the account holder's name (docs/api.md,
 * "Payout approvals"). Pure zod and constants.
 */

/** Whose payouts the policy catches: restricted keys' only (the default) or every key's. */
export const APPROVAL_KEY_SCOPES = ['restricted', 'all'] as const;
export type ApprovalKeyScope = (typeof APPROVAL_KEY_SCOPES)[number];

/** An unapproved payout expires after this long unless PAYOUT_APPROVAL_EXPIRY_SECONDS says otherwise (Mangopay's 7 days). */
export const DEFAULT_APPROVAL_EXPIRY_SECONDS = 7 * 86_400;

/** approve_payouts / reject_payouts: at most this many ids per call. */
export const MAX_APPROVAL_IDS = 1000;

export const payoutApprovalPolicySchema = z.object({
  object: z.literal('payout_approval_policy'),
  required: z.boolean(),
  /** Payouts above this amount wait for approval; 0: every payout. */
  above_amount: z.int().nonnegative(),
  for_keys: z.enum(APPROVAL_KEY_SCOPES),
  /** How long a payout waits before it expires (PAYOUT_APPROVAL_EXPIRY_SECONDS). */
  expires_after_seconds: z.int().positive(),
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type PayoutApprovalPolicy = z.infer<typeof payoutApprovalPolicySchema>;

export const updateApprovalPolicyFields = {
  required: z.boolean({ error: 'required must be true or false' }),
  above_amount: z
    .int({ error: 'above_amount must be an integer in the smallest currency unit' })
    .min(0, { error: 'above_amount must be at least 0' })
    .max(9_007_199_254_740_991, { error: 'above_amount is too large' })
    .optional(),
  for_keys: z.enum(APPROVAL_KEY_SCOPES, { error: `for_keys must be ${APPROVAL_KEY_SCOPES.join(' or ')}` }).optional(),
};

/** approve_payouts / reject_payouts name their payouts by `ids` or by `batch_id` (exactly one; the core checks). */
export const approvalTargetFields = {
  ids: z
    .array(idField('po'), { error: 'ids must be a list of payout ids' })
    .min(1, { error: 'ids must hold at least 1 id' })
    .max(MAX_APPROVAL_IDS, { error: `ids must hold at most ${MAX_APPROVAL_IDS} ids` })
    .refine((list) => new Set(list).size === list.length, { error: 'ids must not repeat an id' })
    .optional(),
  batch_id: idField('pb').optional(),
};

export const rejectionReasonField = z
  .string({ error: 'reason must be a string' })
  .trim()
  .min(1, { error: 'reason must not be empty' })
  .max(500, { error: 'reason must be at most 500 characters' });

export const BANK_ACCOUNT_VALIDATION_STATUSES = ['valid', 'invalid'] as const;

export const validateBankAccountFields = {
  bank_code: z.enum(TEST_BANK_CODES, { error: `bank_code must be one of ${TEST_BANK_CODES.join(', ')}` }),
  account_number: z
    .string({ error: 'account_number must be a string of digits' })
    .regex(ACCOUNT_NUMBER_PATTERN, { error: 'account_number must be 6 to 20 digits' }),
};

export const bankAccountValidationSchema = z.object({
  object: z.literal('bank_account_validation'),
  id: z.string(),
  bank_code: z.string(),
  account_last4: z.string().max(4),
  status: z.enum(BANK_ACCOUNT_VALIDATION_STATUSES),
  account_holder_name: z.string().nullable(),
  failure_code: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  /** The result is reused for the same bank and account until then (24 hours). */
  expires_at: z.iso.datetime({ offset: true }),
  livemode: z.boolean(),
});
export type BankAccountValidation = z.infer<typeof bankAccountValidationSchema>;

/** A validation is reused for the same merchant, bank and account this long. */
export const VALIDATION_TTL_SECONDS = 86_400;

/** Test mode: accounts whose holder has a known name (every other valid account gets a made-up but stable one). */
export const TEST_ACCOUNT_HOLDERS: Readonly<Record<string, string>> = {
  '1234567890': 'Budi Santoso',
  '9876543210': 'Siti Rahayu',
  '1111222233': 'PT Maju Jaya',
  '5555666677': 'Dewi Lestari',
};

/**
 * The matching rule for account_holder_name (docs/api.md): letters compared
 * without case or accents, everything that is not a letter or digit is a space,
 * and the words compared as a set in any order ("SANTOSO, Budi" matches "Budi
 * Santoso"; "Budi Santosa" does not).
 */
export function normalizeHolderName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ');
}

export const holderNamesMatch = (given: string, validated: string) => {
  const a = normalizeHolderName(given);
  return a !== '' && a === normalizeHolderName(validated);
};
