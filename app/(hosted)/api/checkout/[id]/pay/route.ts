// POST /api/checkout/[id]/pay: a customer pays a hosted checkout session with a test card. No merchant key involved.
import { payCheckoutOutcome } from '@/lib/console/hosted-checkout';
import { payCheckoutSchema } from '@/lib/console/request-schemas';
import { consoleRoute, readJson } from '@/lib/console/route-handler';

export const dynamic = 'force-dynamic';

export const POST = consoleRoute<{ id: string }>({ mutates: true }, async ({ req, params }) => {
  const { card_number } = await readJson(req, payCheckoutSchema);
  return payCheckoutOutcome(params.id, card_number, new URL(req.url).origin);
});
