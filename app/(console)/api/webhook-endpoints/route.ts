// GET /api/webhook-endpoints: the merchant's endpoints. POST: add one (idempotent by idempotency_key); its secret is in this answer only.
import { createWebhookEndpointSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ session }) => ok((await session.api.listWebhookEndpoints()).data));

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { idempotency_key, ...input } = await readJson(req, createWebhookEndpointSchema);
  const { data, replayed } = await session.api.createWebhookEndpoint(input, idempotency_key);
  return ok({ ...data, replayed });
});
