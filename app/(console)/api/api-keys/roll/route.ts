// POST /api/api-keys/roll { expires_in_seconds, idempotency_key }: a new secret key, shown once; this session moves to it.
import { rollSecretKeySchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';
import { switchSessionKey } from '@/console/server/session/session';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { expires_in_seconds, idempotency_key } = await readJson(req, rollSecretKeySchema);
  const { data, replayed } = await session.api.rollSecretKey(expires_in_seconds, idempotency_key);
  // A replay carries no secret (it was shown once): the session keeps its key, which the first answer already replaced.
  if (data.secret) await switchSessionKey(session, data.secret);
  return ok({ ...data, replayed });
});
