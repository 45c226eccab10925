// POST /api/approvals: approve, or reject with a reason, the chosen payouts (or a whole batch), all or nothing, under one idempotency key.
import { ApiError } from '@/lib/contract';
import { decidePayoutsSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { decision, idempotency_key, reason, ...target } = await readJson(req, decidePayoutsSchema);
  if (decision === 'approve') {
    const { data, replayed } = await session.api.approvePayouts(target, idempotency_key);
    return ok({ ...data, replayed });
  }
  if (!reason) throw new ApiError('invalid_request', 'A reason is required to reject payouts.', 'reason');
  const { data, replayed } = await session.api.rejectPayouts({ ...target, reason }, idempotency_key);
  return ok({ ...data, replayed });
});
