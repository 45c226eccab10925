// GET /api/payout-batches/[id]: one batch, its payouts counted by status.
import { payoutBatchIdParam } from '@/console/server/routes/request-schemas';
import { ok, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute<{ id: string }>({ mutates: false }, async ({ params, session }) => {
  const id = payoutBatchIdParam.parse(params.id);
  return ok((await session.api.getPayoutBatch(id)).data);
});
