import 'server-only';
import { failuresNow, recordFailure } from '../../../lib/db/auth-failures';
import type { Queryable } from '../../../lib/db/types';
import { newId } from '../../../lib/payments/pipeline/random-id';

/**
 * Server-side session records. The cookie only points at a row; revoking the row
 * (sign-out, sign out everywhere) or its expiry makes every copy of the cookie useless.
 */
export async function createSessionRecord(
  db: Queryable,
  input: { merchantId: string; keyHash: string; ttlSeconds: number },
): Promise<string> {
  const id = newId('sess');
  await db.query(
    `INSERT INTO console_sessions (id, merchant_id, key_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [id, input.merchantId, input.keyHash, input.ttlSeconds],
  );
  return id;
}

export async function findLiveSession(db: Queryable, id: string): Promise<{ merchantId: string; keyHash: string } | undefined> {
  const [row] = await db.query<{ merchant_id: string; key_hash: string }>(
    `SELECT merchant_id, key_hash FROM console_sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [id],
  );
  return row && { merchantId: row.merchant_id, keyHash: row.key_hash };
}

export async function revokeSession(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE console_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
}

/** Sign out everywhere: every live session of the merchant. Returns how many. */
export async function revokeMerchantSessions(db: Queryable, merchantId: string): Promise<number> {
  const rows = await db.query(`UPDATE console_sessions SET revoked_at = now() WHERE merchant_id = $1 AND revoked_at IS NULL RETURNING 1`, [
    merchantId,
  ]);
  return rows.length;
}

/** The console's store as its context holds it: session records and sign-in counts, over one database. */
export interface SessionStore {
  create(input: { merchantId: string; keyHash: string; ttlSeconds: number }): Promise<string>;
  findLive(id: string): Promise<{ merchantId: string; keyHash: string } | undefined>;
  revoke(id: string): Promise<void>;
  revokeMerchant(merchantId: string): Promise<number>;
  /** This minute's failed sign-ins of a bucket (lib/db/auth-failures.ts), and the seconds until the window ends. */
  failuresNow(bucket: string): Promise<{ failures: number; retryAfter: number }>;
  recordFailure(bucket: string): Promise<void>;
}

export function createSessionStore(db: Queryable): SessionStore {
  return {
    create: (input) => createSessionRecord(db, input),
    findLive: (id) => findLiveSession(db, id),
    revoke: (id) => revokeSession(db, id),
    revokeMerchant: (merchantId) => revokeMerchantSessions(db, merchantId),
    failuresNow: (bucket) => failuresNow(db, bucket),
    recordFailure: (bucket) => recordFailure(db, [bucket]),
  };
}
