// POST /api/events/[id]/resend { endpoint_id, idempotency_key }: one more delivery of the event to the endpoint.
import { eventIdParam, resendEventSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute<{ id: string }>({ mutates: true }, async ({ req, params, session }) => {
  const id = eventIdParam.parse(params.id);
  const { endpoint_id, idempotency_key } = await readJson(req, resendEventSchema);
  const { data, replayed } = await session.api.resendEvent({ id, endpoint_id }, idempotency_key);
  return ok({ ...data, replayed });
});
