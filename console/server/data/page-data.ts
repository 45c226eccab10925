import 'server-only';
import { notFound, redirect } from 'next/navigation';
import type { ConsoleSession } from '../session/session';
import { UpstreamError } from '../upstream/upstream-error';
import { endedWithItsKey } from '../routes/route-handler';

/**
 * A server-rendered page's API reads: a 404 is the page's 404, and a key that
 * stopped working ends the session and goes to the sign-in page, as a route's 401 does.
 * Every page that calls the API on the server reads through this.
 */
export async function pageData<T>(session: ConsoleSession, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) notFound();
    if ((await endedWithItsKey(session, error, { inPage: true })) !== error) redirect('/login?ended=1');
    throw error;
  }
}

/** A read the session's key may lack the permission for (a restricted key): null instead of a failed page. */
export const unlessForbidden = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((error: unknown) => {
    if (error instanceof UpstreamError && error.status === 403) return null;
    throw error;
  });
