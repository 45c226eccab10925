// GET /api/payouts?limit&starting_after&status: newest first. POST: send a payout (idempotent by idempotency_key).
import { createPayoutSchema, listPayoutsQuery, queryObject } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const query = listPayoutsQuery.parse(queryObject(req.url));
  return ok((await session.api.listPayouts(query)).data);
});

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  const { idempotency_key, ...input } = await readJson(req, createPayoutSchema);
  const { data, replayed } = await session.api.withdraw(input, idempotency_key);
  return ok({ ...data, replayed });
});
