import 'server-only';
import { notFound, redirect } from 'next/navigation';
import { revokeSessionRecord, type ConsoleSession } from '../session/session';
import { UpstreamError } from '../upstream/upstream-error';

/**
 * A server-rendered page's API reads: a 404 is the page's 404, and a key that
 * stopped working (revoked, rolled) ends the session and goes to the sign-in page
 * with its message, as a console route's 401 does.
 */
export async function pageData<T>(session: ConsoleSession, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) notFound();
    if (error instanceof UpstreamError && error.status === 401) {
      await revokeSessionRecord(session);
      redirect('/login?ended=1');
    }
    throw error;
  }
}

/** A read the session's key may lack the permission for (a restricted key): null instead of a failed page. */
export const unlessForbidden = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((error: unknown) => {
    if (error instanceof UpstreamError && error.status === 403) return null;
    throw error;
  });
