import 'server-only';
import type { Queryable } from '../db/types';
import { newId } from '../payments/random-id';

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
  const rows = await db.query(
    `UPDATE console_sessions SET revoked_at = now() WHERE merchant_id = $1 AND revoked_at IS NULL RETURNING 1`,
    [merchantId],
  );
  return rows.length;
}
