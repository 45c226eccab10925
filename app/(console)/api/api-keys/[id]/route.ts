// POST /api/api-keys/[id] { idempotency_key }: revoke a restricted key (or a rolled secret key in its grace period).
import { apiKeyIdParam, revokeApiKeySchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute<{ id: string }>({ mutates: true }, async ({ req, params, session }) => {
  const id = apiKeyIdParam.parse(params.id);
  const { idempotency_key } = await readJson(req, revokeApiKeySchema);
  const { data, replayed } = await session.api.revokeApiKey(id, idempotency_key);
  return ok({ ...data, replayed });
});
