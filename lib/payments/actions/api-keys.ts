import { ApiError } from '../../contract';
import { newId } from '../random-id';
import { generateRestrictedKey, generateSecretKey, hashSecretKey, keyHint } from '../secret-keys';
import { implement } from './action';

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

const keyObject = (r: KeyRow) => ({
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

/** A restricted key, stored only as its hash like a secret key; the key itself is in this answer alone. */
export const createRestrictedKey = implement(
  'create_restricted_key',
  async ({ db, merchant }, input) => {
    const secret = generateRestrictedKey();
    const [row] = await db.query<KeyRow>(
      `INSERT INTO api_keys (id, merchant_id, key_hash, hint, type, name, permissions, max_payout_amount)
       VALUES ($1, $2, $3, $4, 'restricted', $5, $6, $7) RETURNING ${KEY_COLUMNS}`,
      [newId('key'), merchant.id, hashSecretKey(secret), keyHint(secret), input.name, input.permissions, input.max_payout_amount ?? null],
    );
    return { ...keyObject(row!), secret };
  },
  { atomic: true, oneTimeSecret: true },
);

/** The keys that work now or until their expiry, newest first. */
export const listApiKeys = implement('list_api_keys', async ({ db, merchant }) => {
  const rows = await db.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys
     WHERE merchant_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
     ORDER BY created_at DESC, id`,
    [merchant.id],
  );
  return { object: 'list' as const, data: rows.map(keyObject), has_more: false };
});

/**
 * Revokes a restricted key, or a rolled secret key in its grace period. The
 * current secret key is not revoked here: roll_secret_key replaces it, so a
 * merchant cannot lock itself out by mistake.
 */
export const revokeApiKey = implement(
  'revoke_api_key',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
       WHERE id = $1 AND merchant_id = $2 AND (type = 'restricted' OR expires_at IS NOT NULL) RETURNING ${KEY_COLUMNS}`,
      [input.id, merchant.id],
    );
    if (row) return keyObject(row);
    const [other] = await db.query<{ type: string }>('SELECT type FROM api_keys WHERE id = $1 AND merchant_id = $2', [input.id, merchant.id]);
    if (!other) throw new ApiError('not_found', `No such key: ${input.id}`, 'id');
    throw new ApiError('invalid_request', 'The current secret key cannot be revoked: roll it (roll_secret_key) to replace it.', 'id');
  },
  { atomic: true },
);

/**
 * A new secret key. The secret keys in use without an expiry get one: now + the
 * grace period (0, the default: revoked at once). A key already in a grace
 * period keeps its own, earlier expiry.
 */
export const rollSecretKey = implement(
  'roll_secret_key',
  async ({ db, merchant }, input) => {
    const secret = generateSecretKey();
    const grace = input.expires_in_seconds ?? 0;
    const [row] = await db.query<KeyRow>(
      `WITH old AS (
         UPDATE api_keys SET expires_at = now() + make_interval(secs => $5), revoked_at = CASE WHEN $5 = 0 THEN now() END
         WHERE merchant_id = $2 AND type = 'secret' AND revoked_at IS NULL AND expires_at IS NULL)
       INSERT INTO api_keys (id, merchant_id, key_hash, hint, type) VALUES ($1, $2, $3, $4, 'secret') RETURNING ${KEY_COLUMNS}`,
      [newId('key'), merchant.id, hashSecretKey(secret), keyHint(secret), grace],
    );
    return { ...keyObject(row!), secret };
  },
  { atomic: true, oneTimeSecret: true },
);
