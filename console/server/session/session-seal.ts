import 'server-only';
import { sealData, unsealData } from 'iron-session';
import type { Viewer } from '../../browser/viewer';

/**
 * What the sealed cookie carries: the server-side session id, the key, and what
 * the key is and may do as the API said at sign-in (a key's permissions never change).
 */
export interface SealedSession {
  sid: string;
  secretKey: string;
  viewer: Viewer;
}

/**
 * Seals with the newest secret. Each seal names its password by id; always using
 * id 1 with a single secret, and trying every secret in turn on unseal, lets an
 * operator add or drop secrets anywhere in the list without invalidating cookies
 * sealed with the ones that remain.
 */
export async function seal(data: SealedSession, secrets: string[], ttlSeconds: number): Promise<string> {
  return sealData(data, { password: secrets[0]!, ttl: ttlSeconds });
}

/**
 * Unsealing is ~0.8 ms of async Web Crypto (measured), and the console unseals
 * the same cookie on every call. Its result depends only on the cookie and the
 * secrets, so recent results are kept in memory, bounded in number and age.
 * Sign-out and expiry are unaffected: the server-side record is checked on every
 * request, and it expires with the seal.
 */
const recent = new Map<string, { data: SealedSession; until: number }>();
const RECENT_MAX = 1_000;
const RECENT_MS = 60_000;

export async function unseal(cookie: string, secrets: string[], ttlSeconds: number): Promise<SealedSession | undefined> {
  const key = `${secrets.join(',')}\n${cookie}`;
  const hit = recent.get(key);
  if (hit && hit.until > Date.now()) return hit.data;
  recent.delete(key);
  const data = await unsealWithAny(cookie, secrets, ttlSeconds);
  if (data) {
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
    recent.set(key, { data, until: Date.now() + RECENT_MS });
  }
  return data;
}

async function unsealWithAny(cookie: string, secrets: string[], ttlSeconds: number): Promise<SealedSession | undefined> {
  for (const password of secrets) {
    try {
      const data = await unsealData<Partial<SealedSession>>(cookie, { password, ttl: ttlSeconds });
      // A cookie sealed before sessions carried their viewer is no session: sign in again.
      if (typeof data.sid === 'string' && typeof data.secretKey === 'string' && data.viewer?.key) {
        return { sid: data.sid, secretKey: data.secretKey, viewer: data.viewer };
      }
    } catch {
      // A malformed cookie: treat as no session.
      return undefined;
    }
  }
  return undefined;
}
