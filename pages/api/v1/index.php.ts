// POST /v1/index.php (rewritten here by next.config.js): the payment API on Next.
//
// A Pages Router API route, not an App Router route handler, on purpose: it hands
// over node's request and response, which the core's node adapter serves
// directly. A route handler converts both to web Request/Response and streams;
// measured on the same machine, that doubled Next's CPU per call (1.45 ms against
// 0.80 ms for get_balance) and halved throughput. See README, "Speed".
import type { NextApiRequest, NextApiResponse } from 'next';
import { clientAddressBehindNext } from '@/lib/server/client-address';
import { nodeHandler } from '@/lib/server/node-http';
import { getRuntime } from '@/lib/server/runtime';

// The core reads the raw body itself (size limit, exact JSON errors).
export const config = { api: { bodyParser: false, externalResolver: true } };

let handle: ReturnType<typeof nodeHandler> | undefined;

export default async function paymentApi(req: NextApiRequest, res: NextApiResponse) {
  handle ??= nodeHandler((await getRuntime()).core, clientAddressBehindNext);
  await handle(req, res);
}
