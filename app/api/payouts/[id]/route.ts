// GET /api/payouts/[id]: one payout, with its failure reason once it has failed.
import { payoutIdParam } from '@/lib/console/request-schemas';
import { ok, sessionRoute } from '@/lib/console/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute<{ id: string }>({ mutates: false }, async ({ params, session }) => {
  return ok((await session.api.getPayout(payoutIdParam.parse(params.id))).data);
});
