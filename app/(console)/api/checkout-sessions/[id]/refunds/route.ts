// GET /api/checkout-sessions/[id]/refunds: the session's refunds, newest first. POST: refund it (idempotent by idempotency_key).
import { checkoutSessionIdParam, createRefundSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute<{ id: string }>({ mutates: false }, async ({ params, session }) => {
  const id = checkoutSessionIdParam.parse(params.id);
  return ok((await session.api.listRefunds({ checkout_session_id: id, limit: 100 })).data);
});

export const POST = sessionRoute<{ id: string }>({ mutates: true }, async ({ req, params, session }) => {
  const id = checkoutSessionIdParam.parse(params.id);
  const { idempotency_key, ...input } = await readJson(req, createRefundSchema);
  const { data, replayed } = await session.api.createRefund({ checkout_session_id: id, ...input }, idempotency_key);
  return ok({ ...data, replayed });
});
