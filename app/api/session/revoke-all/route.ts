// POST /api/session/revoke-all: sign out everywhere (every session of this merchant).
import { assertNoForeignBody, ok, sessionRoute } from '@/lib/console/route-handler';
import { endAllSessions } from '@/lib/session/session';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  assertNoForeignBody(req);
  return ok({ revoked: await endAllSessions(session) });
});
