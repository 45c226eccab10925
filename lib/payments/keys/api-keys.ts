import type { Queryable } from '../../db/types';
import { newId } from '../pipeline/random-id';
import { generateRestrictedKey, generateSecretKey, hashSecretKey, keyHint } from '../pipeline/secret-keys';

interface KeyRow {
  id: string;
  type: 'secret' | 'restricted';
  name: string | null;
  hint: string;
  permissions: string[] | null;
  max_payout_amount: number | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

/** Never the key nor its hash. */
const KEY_COLUMNS = 'id, type, name, hint, permissions, max_payout_amount, created_at, last_used_at, expires_at, revoked_at';
const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export const keyObject = (r: KeyRow) => ({
  object: 'api_key' as const,
  id: r.id,
  type: r.type,
  name: r.name,
  hint: r.hint,
  permissions: r.permissions,
  max_payout_amount: r.max_payout_amount,
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at),
  expires_at: iso(r.expires_at),
  revoked_at: iso(r.revoked_at),
});

/** A restricted key, stored only as its hash like a secret key; the key itself is returned once. */
export async function insertRestrictedKey(
  db: Queryable,
  merchantId: string,
  input: { name: string; permissions: string[]; max_payout_amount?: number },
) {
  const secret = generateRestrictedKey();
  const [row] = await db.query<KeyRow>(
    `INSERT INTO api_keys (id, merchant_id, key_hash, hint, type, name, permissions, max_payout_amount)
     VALUES ($1, $2, $3, $4, 'restricted', $5, $6, $7) RETURNING ${KEY_COLUMNS}`,
    [newId('key'), merchantId, hashSecretKey(secret), keyHint(secret), input.name, input.permissions, input.max_payout_amount ?? null],
  );
  return { ...keyObject(row!), secret };
}

/**
 * A new secret key. The secret keys in use without an expiry get one: now + the
 * grace period (0: revoked at once). A key already in a grace period keeps its
 * own, earlier expiry. One statement: the new key and the old one's end commit together.
 */
export async function rollSecretKey(db: Queryable, merchantId: string, graceSeconds: number) {
  const secret = generateSecretKey();
  const [row] = await db.query<KeyRow>(
    `WITH old AS (
       UPDATE api_keys SET expires_at = app_now() + make_interval(secs => $5), revoked_at = CASE WHEN $5 = 0 THEN app_now() END
       WHERE merchant_id = $2 AND type = 'secret' AND revoked_at IS NULL AND expires_at IS NULL)
     INSERT INTO api_keys (id, merchant_id, key_hash, hint, type) VALUES ($1, $2, $3, $4, 'secret') RETURNING ${KEY_COLUMNS}`,
    [newId('key'), merchantId, hashSecretKey(secret), keyHint(secret), graceSeconds],
  );
  return { ...keyObject(row!), secret };
}

export { KEY_COLUMNS, type KeyRow };
