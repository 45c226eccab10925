// GET /api/payout-batches/[id]: one batch, its payouts counted by status.
import { payoutBatchIdParam } from '@/lib/console/request-schemas';
import { ok, sessionRoute } from '@/lib/console/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute<{ id: string }>({ mutates: false }, async ({ params, session }) => {
  const id = payoutBatchIdParam.parse(params.id);
  return ok((await session.api.getPayoutBatch(id)).data);
});
