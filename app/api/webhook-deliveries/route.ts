// GET /api/webhook-deliveries?endpoint_id&limit: an endpoint's recent deliveries, newest first.
import { listDeliveriesQuery, queryObject } from '@/lib/console/request-schemas';
import { ok, sessionRoute } from '@/lib/console/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  const query = listDeliveriesQuery.parse(queryObject(req.url));
  return ok((await session.api.listWebhookDeliveries(query)).data);
});
