// POST /api/session: sign in with a secret key (checked by calling the API). DELETE: sign out.
import 'server-only';
import { ApiError } from '@/lib/contract';
import { notSignedIn } from '@/lib/console/errors';
import { looksLikeSecretKey, signInSchema } from '@/lib/console/request-schemas';
import { assertNoForeignBody, consoleRoute, ok, readJson } from '@/lib/console/route-handler';
import { paymentClient } from '@/lib/upstream';
import { merchantApi } from '@/lib/upstream/merchant-api';
import { UpstreamError } from '@/lib/upstream/upstream-error';
import { endSession, startSession, verifySession } from '@/lib/session/session';

export const dynamic = 'force-dynamic';

const rejected = () => new ApiError('invalid_secret_key', 'That secret key was not accepted.', 'secretKey');

export const POST = consoleRoute({ mutates: true }, async ({ req }) => {
  const { secretKey } = await readJson(req, signInSchema);
  if (!looksLikeSecretKey(secretKey)) throw rejected();
  const balance = await merchantApi(paymentClient(), secretKey)
    .getBalance()
    .catch((error) => {
      throw error instanceof UpstreamError && error.status === 401 ? rejected() : error;
    });
  await startSession(secretKey, balance.data.merchant.id);
  return ok({ merchant: { name: balance.data.merchant.name }, test_mode: secretKey.startsWith('sk_test_') });
});

export const DELETE = consoleRoute({ mutates: true }, async ({ req }) => {
  assertNoForeignBody(req);
  const session = await verifySession();
  // The cookie is cleared either way; without a live session the answer is still the usual 401.
  await endSession(session);
  if (!session) throw notSignedIn();
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
});
