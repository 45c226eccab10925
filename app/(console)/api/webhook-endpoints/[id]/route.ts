// POST /api/webhook-endpoints/[id] { op, idempotency_key }: disable, enable, rotate the secret (shown once) or delete.
import { webhookEndpointIdParam, webhookEndpointOpSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute<{ id: string }>({ mutates: true }, async ({ req, params, session }) => {
  const id = webhookEndpointIdParam.parse(params.id);
  const { op, idempotency_key } = await readJson(req, webhookEndpointOpSchema);
  const { api } = session;
  const { data, replayed } =
    op === 'rotate'
      ? await api.rotateWebhookSecret(id, idempotency_key)
      : op === 'delete'
        ? await api.deleteWebhookEndpoint(id, idempotency_key)
        : await api.updateWebhookEndpoint({ id, disabled: op === 'disable' }, idempotency_key);
  return ok({ ...data, replayed });
});
