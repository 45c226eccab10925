import { DEFAULT_APPROVAL_EXPIRY_SECONDS, type PayoutApprovalPolicy } from '../../contract';
import type { ApprovalPolicy, CallerKey, Merchant } from '../pipeline/caller';

/** The statuses a new payout can start in: at once on its way, or waiting for a second key. */
export type StartStatus = 'pending' | 'awaiting_approval';

/**
 * Whether the merchant's policy catches a payout of `amount` made by `key`:
 * required, above the threshold, and made by a restricted key (or by any key,
 * for_keys "all"). Decided with the key's authentication, before any database work.
 */
export function startStatus(merchant: Pick<Merchant, 'payoutApproval'>, key: Pick<CallerKey, 'type'>, amount: number): StartStatus {
  const p = merchant.payoutApproval;
  if (!p?.required || amount <= p.aboveAmount) return 'pending';
  return p.forKeys === 'all' || key.type === 'restricted' ? 'awaiting_approval' : 'pending';
}

export const approvalExpirySeconds = (settings: { payoutApprovalExpirySeconds?: number }) =>
  settings.payoutApprovalExpirySeconds ?? DEFAULT_APPROVAL_EXPIRY_SECONDS;

export const policyObject = (p: ApprovalPolicy, expirySeconds: number, updatedAt: Date | string | null): PayoutApprovalPolicy => ({
  object: 'payout_approval_policy',
  required: p.required,
  above_amount: p.aboveAmount,
  for_keys: p.forKeys,
  expires_after_seconds: expirySeconds,
  updated_at: updatedAt === null ? null : new Date(updatedAt).toISOString(),
});
