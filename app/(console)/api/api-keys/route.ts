// GET /api/api-keys: the merchant's keys (hints, never secrets). POST: a restricted key, its secret in this answer only.
import { createRestrictedKeySchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ session }) => ok((await session.api.listApiKeys()).data));

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { idempotency_key, ...input } = await readJson(req, createRestrictedKeySchema);
  const { data, replayed } = await session.api.createRestrictedKey(input, idempotency_key);
  return ok({ ...data, replayed });
});
