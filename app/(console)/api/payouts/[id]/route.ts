// GET /api/payouts/[id]: one payout, with its failure reason once it has failed.
import { payoutIdParam } from '@/console/server/routes/request-schemas';
import { ok, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute<{ id: string }>({ mutates: false }, async ({ params, session }) => {
  return ok((await session.api.getPayout(payoutIdParam.parse(params.id))).data);
});
