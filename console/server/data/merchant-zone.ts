import 'server-only';
import { cache } from 'react';
import type { ConsoleSession } from '../session/session';
import { pageData } from './page-data';

/**
 * The merchant's time zone, read once per request (React cache, keyed by the request's session):
 * get_current_key carries it for any key, a restricted one without balance:read too.
 */
export const merchantTimeZone = cache(async (session: ConsoleSession): Promise<string> => {
  return (await session.api.getCurrentKey()).data.merchant.time_zone;
});

/** For pages: as pageData reads, so a key that stopped working ends the session. */
export const pageTimeZone = (session: ConsoleSession) => pageData(session, () => merchantTimeZone(session));
