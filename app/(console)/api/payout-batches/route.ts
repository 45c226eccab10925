// POST /api/payout-batches: send up to 1,000 payouts at once (idempotent by idempotency_key).
import { MAX_BODY_BYTES } from '@/lib/contract';
import { createPayoutBatchSchema } from '@/console/server/routes/request-schemas';
import { ok, readJson, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  // A batch of 1,000 rows needs the API's own body limit, not the console's 16 KiB.
  const { idempotency_key, payouts } = await readJson(req, createPayoutBatchSchema, MAX_BODY_BYTES);
  const { data, replayed } = await session.api.createPayoutBatch(payouts, idempotency_key);
  return ok({ ...data, replayed });
});
