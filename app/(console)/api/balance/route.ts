// GET /api/balance: available and pending payouts, in the merchant's currency, and the low-balance threshold (for the banner).
import { ok, sessionRoute } from '@/console/server/routes/route-handler';

export const dynamic = 'force-dynamic';

export const GET = sessionRoute({ mutates: false }, async ({ session }) => {
  const [{ data }, settings] = await Promise.all([session.api.getBalance(), session.api.getAccountSettings()]);
  return ok({ ...data, test_mode: session.viewer.testMode, low_balance_threshold: settings.data.low_balance_threshold });
});
