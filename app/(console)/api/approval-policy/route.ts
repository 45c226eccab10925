// GET /api/approval-policy: which payouts wait for approval. POST: change it (the secret key; idempotent by idempotency_key).
import { updateApprovalPolicySchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ session }) => ok((await session.api.getApprovalPolicy()).data));

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { idempotency_key, ...input } = await readJson(req, updateApprovalPolicySchema);
  const { data, replayed } = await session.api.updateApprovalPolicy(input, idempotency_key);
  return ok({ ...data, replayed });
});
