// GET /api/checkout-sessions?limit&starting_after: newest first. POST: create one (idempotent by idempotency_key).
import { createCheckoutSchema, listCheckoutQuery, queryObject } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const query = listCheckoutQuery.parse(queryObject(req.url));
  return ok((await session.api.listCheckoutSessions(query)).data);
});

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { idempotency_key, ...input } = await readJson(req, createCheckoutSchema);
  const { data, replayed } = await session.api.createCheckoutSession(input, idempotency_key);
  return ok({ ...data, replayed });
});
