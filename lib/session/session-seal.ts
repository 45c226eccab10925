import 'server-only';
import { sealData, unsealData } from 'iron-session';

/** What the sealed cookie carries: the server-side session id and the merchant's key. */
export interface SealedSession {
  sid: string;
  secretKey: string;
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

export async function unseal(cookie: string, secrets: string[], ttlSeconds: number): Promise<SealedSession | undefined> {
  for (const password of secrets) {
    try {
      const data = await unsealData<Partial<SealedSession>>(cookie, { password, ttl: ttlSeconds });
      if (typeof data.sid === 'string' && typeof data.secretKey === 'string') return { sid: data.sid, secretKey: data.secretKey };
    } catch {
      // A malformed cookie: treat as no session.
      return undefined;
    }
  }
  return undefined;
}
