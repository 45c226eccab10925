// POST /v1/index.php: the payment API. Mounts the framework-agnostic core; every other method gets its 405.
import { getRuntime } from '@/lib/server/runtime';
import { clientAddressFromHeaders } from '@/lib/server/client-address';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

async function handle(req: Request): Promise<Response> {
  const { api } = await getRuntime();
  return api(req, { clientAddress: clientAddressFromHeaders(req.headers) });
}

export { handle as POST, handle as GET, handle as PUT, handle as PATCH, handle as DELETE };
