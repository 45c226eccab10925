import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { env, servedOverHttps } from '../config/env';
import { hashSecretKey } from '../payments/secret-keys';
import { getRuntime } from '../server/runtime';
import { paymentClient } from '../upstream';
import { merchantApi, type MerchantApi } from '../upstream/merchant-api';
import { seal, unseal } from './session-seal';
import { sessionSecrets } from './session-secrets';
import { createSessionRecord, findLiveSession, revokeMerchantSessions, revokeSession } from './session-store';

export const SESSION_TTL_SECONDS = 8 * 60 * 60;

/**
 * The cookie's name and attributes. Over https it is `__Host-console_session`: the
 * browser then guarantees Secure, Path=/ and no Domain, so no subdomain or plain-http
 * page can set or shadow it.
 */
export function sessionCookie(settings: Parameters<typeof servedOverHttps>[0] & { NODE_ENV: string }) {
  const https = servedOverHttps(settings);
  return {
    name: https ? '__Host-console_session' : 'console_session',
    options: {
      httpOnly: true,
      secure: https || settings.NODE_ENV === 'production',
      sameSite: 'strict' as const,
      path: '/',
      maxAge: SESSION_TTL_SECONDS,
    },
  };
}

export interface ConsoleSession {
  id: string;
  merchantId: string;
  /** sk_test_ keys: the console shows its test-mode banner. */
  testMode: boolean;
  /** The payment API as this merchant. The key itself is not part of the session object. */
  api: MerchantApi;
}


/**
 * Starts a session for a key the payment API has just accepted: a new server-side
 * record (a new id at every sign-in) and a sealed cookie pointing at it.
 */
export async function startSession(secretKey: string, merchantId: string): Promise<void> {
  const { db } = await getRuntime();
  const sid = await createSessionRecord(db, { merchantId, keyHash: hashSecretKey(secretKey), ttlSeconds: SESSION_TTL_SECONDS });
  const sealed = await seal({ sid, secretKey }, sessionSecrets(), SESSION_TTL_SECONDS);
  const cookie = sessionCookie(env());
  (await cookies()).set(cookie.name, sealed, cookie.options);
}

/**
 * The data layer's check, once per request: the cookie unseals, its record is
 * live (not signed out, not expired) and belongs to the key it carries. Pages,
 * route handlers and anything that reads data call this; proxy.ts only guesses.
 */
export const verifySession = cache(async (): Promise<ConsoleSession | null> => {
  const cookie = (await cookies()).get(sessionCookie(env()).name)?.value;
  if (!cookie) return null;
  const data = await unseal(cookie, sessionSecrets(), SESSION_TTL_SECONDS);
  if (!data) return null;
  const { db } = await getRuntime();
  const record = await findLiveSession(db, data.sid);
  if (!record || record.keyHash !== hashSecretKey(data.secretKey)) return null;
  return {
    id: data.sid,
    merchantId: record.merchantId,
    testMode: data.secretKey.startsWith('sk_test_'),
    api: merchantApi(paymentClient(), data.secretKey),
  };
});

/** For pages: the session, or a redirect to the sign-in page. */
export async function requireSession(): Promise<ConsoleSession> {
  const session = await verifySession();
  if (!session) redirect('/login');
  return session;
}

/** Sign-out: the record is revoked, so a saved copy of the cookie is worthless too. */
export async function endSession(session: ConsoleSession | null): Promise<void> {
  if (session) await revokeSession((await getRuntime()).db, session.id);
  await clearCookie();
}

/**
 * For a page whose API call found the key no longer works: a render may not
 * change cookies, so only the record is revoked; the cookie then points at
 * nothing, and the sign-in page it is sent to finds no session (no loop).
 */
export async function revokeSessionRecord(session: ConsoleSession): Promise<void> {
  await revokeSession((await getRuntime()).db, session.id);
}

/** Sign out everywhere: every session of the merchant, in every browser. */
export async function endAllSessions(session: ConsoleSession): Promise<number> {
  const count = await revokeMerchantSessions((await getRuntime()).db, session.merchantId);
  await clearCookie();
  return count;
}

/** Same attributes as when set: a browser ignores a deletion that differs (a Secure cookie is only replaced by a Secure one). */
async function clearCookie() {
  const cookie = sessionCookie(env());
  (await cookies()).set(cookie.name, '', { ...cookie.options, maxAge: 0 });
}
