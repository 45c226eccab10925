// POST /api/session/revoke-all: sign out everywhere (every session of this merchant).
import { assertNoForeignBody, ok, sessionRoute } from '@/console/server/routes/route-handler';
import { endAllSessions } from '@/console/server/session/session';

export const dynamic = 'force-dynamic';

export const POST = sessionRoute({ mutates: true }, async ({ req, session }) => {
  assertNoForeignBody(req);
  return ok({ revoked: await endAllSessions(session) });
});
