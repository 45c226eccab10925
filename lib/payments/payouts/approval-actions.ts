import { ApiError, type ActionRequest } from '../../contract';
import { approvalExpirySeconds, policyObject } from './approval-policy';
import { approvePayouts, endWaitingPayouts, lockForDecision, type ApprovalTarget } from './payout-approvals';
import { listObject } from '../pipeline/api-object';
import { readAction, writeAction } from '../pipeline/action';

/**
 * Payout approvals (docs/api.md, "Payout approvals"): the policy, and
 * approving or rejecting waiting payouts, all or nothing, never by the key that
 * made them.
 */

interface PolicyRow {
  payout_approval_required: boolean;
  payout_approval_above_amount: number;
  payout_approval_for_keys: 'restricted' | 'all';
  payout_approval_updated_at: Date | null;
}

const POLICY_COLUMNS = 'payout_approval_required, payout_approval_above_amount, payout_approval_for_keys, payout_approval_updated_at';
const fromRow = (r: PolicyRow) => ({
  required: r.payout_approval_required,
  aboveAmount: r.payout_approval_above_amount,
  forKeys: r.payout_approval_for_keys,
});

export const getPayoutApprovalPolicy = readAction('get_payout_approval_policy', async ({ db, merchant, settings }) => {
  const [row] = await db.query<PolicyRow>(`SELECT ${POLICY_COLUMNS} FROM merchants WHERE id = $1`, [merchant.id]);
  return policyObject(fromRow(row!), approvalExpirySeconds(settings), row!.payout_approval_updated_at);
});

/** Payouts made after the commit follow the new policy; payouts already waiting keep waiting. */
export const updatePayoutApprovalPolicy = writeAction(
  'update_payout_approval_policy',
  async ({ db, merchant, settings }, input) => {
    const [row] = await db.query<PolicyRow>(
      `UPDATE merchants SET payout_approval_required = $2, payout_approval_above_amount = $3, payout_approval_for_keys = $4,
         payout_approval_updated_at = app_now() WHERE id = $1 RETURNING ${POLICY_COLUMNS}`,
      [merchant.id, input.required, input.above_amount ?? 0, input.for_keys ?? 'restricted'],
    );
    return policyObject(fromRow(row!), approvalExpirySeconds(settings), row!.payout_approval_updated_at);
  },
  { atomic: true },
);

/** Exactly one of ids and batch_id. */
function targetOf(input: Pick<ActionRequest<'approve_payouts'>, 'ids' | 'batch_id'>): ApprovalTarget {
  if (input.ids && input.batch_id) throw new ApiError('invalid_request', 'Give either ids or batch_id, not both.', 'batch_id');
  if (input.batch_id) return { batchId: input.batch_id };
  if (!input.ids) throw new ApiError('invalid_request', 'ids (or batch_id) is required.', 'ids');
  return { ids: input.ids };
}

export const approvePayoutsAction = writeAction('approve_payouts', async ({ db, merchant, key }, input) => {
  const ids = await lockForDecision(db, merchant.id, key, targetOf(input));
  return listObject(await approvePayouts(db, merchant.id, key, ids), false);
});

export const rejectPayoutsAction = writeAction('reject_payouts', async ({ db, merchant, key }, input) => {
  const ids = await lockForDecision(db, merchant.id, key, targetOf(input));
  return listObject(await endWaitingPayouts(db, merchant.id, ids, { status: 'rejected', by: key, reason: input.reason }), false);
});
