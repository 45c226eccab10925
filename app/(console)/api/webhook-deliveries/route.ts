// GET /api/webhook-deliveries?endpoint_id&limit: an endpoint's recent deliveries, newest first.
import { listDeliveriesQuery, queryObject } from '@/console/server/routes/request-schemas';
import { ok, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const query = listDeliveriesQuery.parse(queryObject(req.url));
  return ok((await session.api.listWebhookDeliveries(query)).data);
});
