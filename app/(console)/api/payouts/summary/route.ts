// GET /api/payouts/summary?status&created_gte&created_lt&account_last4: the count and total of a filter (summarize_payouts).
import { queryObject, summarizePayoutsQuery } from '@/console/server/routes/request-schemas';
import { ok, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ req, session }) => {
  return ok((await session.api.summarizePayouts(summarizePayoutsQuery.parse(queryObject(req.url)))).data);
});
