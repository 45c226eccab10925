// The payment API's path asked of a console that Next serves alone (`next start`, instrumentation.ts):
// the API runs elsewhere, and the answer says where, in the one error shape. Under `npm start` the app
// server answers this path before Next (lib/server/app-server.ts), so this route is never reached there.
import { apiElsewhereAnswer } from '@/lib/contract';
import { env } from '@/lib/config/env';

export const dynamic = 'force-dynamic';

function elsewhere(): Response {
  const answer = apiElsewhereAnswer(env().PAYMENT_API_BASE_URL);
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export { elsewhere as GET, elsewhere as POST, elsewhere as PUT, elsewhere as PATCH, elsewhere as DELETE };
