// POST /api/checkout/[id]/pay: a customer pays a hosted checkout session with a test card. No merchant key involved.
// The hosted page's own route, on the API's side: served only where the API runs.
import { ApiError } from '@/lib/contract';
import { jsonResponse } from '@/console/server/routes/errors';
import { payCheckoutSchema } from '@/console/server/routes/request-schemas';
import { consoleRoute, readJson } from '@/console/server/routes/route-handler';
import { hostedCheckout } from '@/lib/server/hosted-checkout';

export const dynamic = 'force-dynamic';

export const POST = consoleRoute<{ id: string }>({ mutates: true }, async ({ req, params }) => {
  const checkout = hostedCheckout();
  if (!checkout) throw new ApiError('not_found', 'Checkout sessions are paid where the payment API runs.');
  const { card_number } = await readJson(req, payCheckoutSchema);
  const answer = await checkout.pay(params.id, card_number, new URL(req.url).origin);
  return jsonResponse(answer.status, answer.body);
});
