// GET /api/balance: available and pending payouts, in the merchant's currency.
import { ok, sessionRoute } from '@/lib/console/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ session }) => {
  const { data } = await session.api.getBalance();
  return ok({ ...data, test_mode: session.viewer.testMode });
});
