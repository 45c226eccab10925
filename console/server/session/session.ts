import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { CurrentKey } from '../../../lib/contract';
import type { Viewer } from '../../browser/viewer';
import { env, servedOverHttps } from '../../../lib/config/env';
import { hashSecretKey } from '../../../lib/payments/pipeline/secret-keys';
import { merchantApi, type MerchantApi } from '../upstream/merchant-api';
import { consoleContext } from '../data/data-access';
import { seal, unseal } from './session-seal';
import { sessionSecrets } from './session-secrets';

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
  /** Who is signed in and what the key may do: the pages show only that. */
  viewer: Viewer;
  /** The payment API as this merchant. The key itself is not part of the session object. */
  api: MerchantApi;
}

/**
 * Starts a session for a key the payment API has just described (get_current_key):
 * a new server-side record (a new id at every sign-in) and a sealed cookie pointing at it.
 */
export async function startSession(secretKey: string, current: CurrentKey): Promise<void> {
  const sid = await consoleContext().sessions.create({
    merchantId: current.merchant.id,
    keyHash: hashSecretKey(secretKey),
    ttlSeconds: SESSION_TTL_SECONDS,
  });
  const viewer: Viewer = {
    merchantName: current.merchant.name,
    testMode: /^(sk|rk)_test_/.test(secretKey),
    sandbox: current.merchant.sandbox_id !== null,
    key: { id: current.id, type: current.type, name: current.name, permissions: current.permissions },
  };
  const sealed = await seal({ sid, secretKey, viewer }, sessionSecrets(), SESSION_TTL_SECONDS);
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
  const { sessions, payments } = consoleContext();
  const record = await sessions.findLive(data.sid);
  if (!record || record.keyHash !== hashSecretKey(data.secretKey)) return null;
  return {
    id: data.sid,
    merchantId: record.merchantId,
    viewer: data.viewer,
    api: merchantApi(payments, data.secretKey),
  };
});

/** For pages: the session, or a redirect to the sign-in page. */
export async function requireSession(): Promise<ConsoleSession> {
  const session = await verifySession();
  if (!session) redirect('/login');
  return session;
}

/**
 * The merchant rolled its secret key from this console: this session carries on
 * with the new key (a new record and cookie), the old record is revoked.
 */
export async function switchSessionKey(session: ConsoleSession, secretKey: string): Promise<void> {
  const { sessions, payments } = consoleContext();
  const current = await merchantApi(payments, secretKey).getCurrentKey();
  await sessions.revoke(session.id);
  await startSession(secretKey, current.data);
}

/** Sign-out: the record is revoked, so a saved copy of the cookie is worthless too. */
export async function endSession(session: ConsoleSession | null, opts: { keepCookie?: boolean } = {}): Promise<void> {
  if (session) await consoleContext().sessions.revoke(session.id);
  // A page (a Server Component) may not set cookies: the revoked record alone makes the cookie worthless.
  if (!opts.keepCookie) await clearCookie();
}

/** Sign out everywhere: every session of the merchant, in every browser. */
export async function endAllSessions(session: ConsoleSession): Promise<number> {
  const count = await consoleContext().sessions.revokeMerchant(session.merchantId);
  await clearCookie();
  return count;
}

/** Same attributes as when set: a browser ignores a deletion that differs (a Secure cookie is only replaced by a Secure one). */
async function clearCookie() {
  const cookie = sessionCookie(env());
  (await cookies()).set(cookie.name, '', { ...cookie.options, maxAge: 0 });
}
