// POST /api/session: sign in with a secret or restricted key (checked by calling the API). DELETE: sign out.
import 'server-only';
import { ApiError } from '@/lib/contract';
import { notSignedIn } from '@/console/server/routes/errors';
import { looksLikeApiKey, signInSchema } from '@/console/server/routes/request-schemas';
import { assertNoForeignBody, consoleRoute, ok, readJson } from '@/console/server/routes/route-handler';
import { consoleContext } from '@/console/server/data/data-access';
import { merchantApi } from '@/console/server/upstream/merchant-api';
import { UpstreamError } from '@/console/server/upstream/upstream-error';
import { endSession, startSession, verifySession } from '@/console/server/session/session';
import { assertSignInAllowed, signInFailed } from '@/console/server/session/sign-in-limit';

export const dynamic = 'force-dynamic';

const rejected = () => new ApiError('invalid_secret_key', 'That API key was not accepted.', 'secretKey');

export const POST = consoleRoute({ mutates: true }, async ({ req }) => {
  // Attempts are limited per browser address (as the server in front says it), checked before anything else.
  const address = consoleContext().clientAddress(req.headers);
  await assertSignInAllowed(address);
  const { secretKey } = await readJson(req, signInSchema);
  if (!looksLikeApiKey(secretKey)) throw await signInFailed(address, rejected());
  // Secret and restricted keys alike: the API says which key it is and what it may do.
  const current = await merchantApi(consoleContext().payments, secretKey)
    .getCurrentKey({ clientAddress: address })
    .catch(async (error) => {
      throw error instanceof UpstreamError && error.status === 401 ? await signInFailed(address, rejected()) : error;
    });
  await startSession(secretKey, current.data);
  return ok({
    merchant: { name: current.data.merchant.name },
    key: { type: current.data.type, name: current.data.name },
    test_mode: /^(sk|rk)_test_/.test(secretKey),
  });
});

export const DELETE = consoleRoute({ mutates: true }, async ({ req }) => {
  assertNoForeignBody(req);
  const session = await verifySession();
  // The cookie is cleared either way; without a live session the answer is still the usual 401.
  await endSession(session);
  if (!session) throw notSignedIn();
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
});
