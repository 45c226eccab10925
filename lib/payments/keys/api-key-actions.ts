import { ApiError } from '../../contract';
import { insertRestrictedKey, KEY_COLUMNS, keyObject, rollSecretKey as roll, type KeyRow } from './api-keys';
import { readAction, writeAction } from '../pipeline/action';

export const createRestrictedKey = writeAction(
  'create_restricted_key',
  ({ db, merchant }, input) => insertRestrictedKey(db, merchant.id, input),
  {
    atomic: true,
    oneTimeSecret: true,
  },
);
/** The calling key, as list_api_keys shows it, and whose it is: a console learns what to show from it. */
export const getCurrentKey = readAction('get_current_key', async ({ db, merchant, key }) => {
  const [row] = await db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 AND merchant_id = $2`, [key.id, merchant.id]);
  if (!row) throw new Error(`key ${key.id} authenticated but not found`);
  return {
    ...keyObject(row),
    merchant: { id: merchant.id, name: merchant.name, time_zone: merchant.timeZone, sandbox_id: merchant.sandbox?.id ?? null },
  };
});

/** The keys that work now or until their expiry, newest first. */
export const listApiKeys = readAction('list_api_keys', async ({ db, merchant }) => {
  const rows = await db.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys
     WHERE merchant_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > app_now())
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
export const revokeApiKey = writeAction(
  'revoke_api_key',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, app_now())
       WHERE id = $1 AND merchant_id = $2 AND (type = 'restricted' OR expires_at IS NOT NULL) RETURNING ${KEY_COLUMNS}`,
      [input.id, merchant.id],
    );
    if (row) return keyObject(row);
    const [other] = await db.query<{ type: string }>('SELECT type FROM api_keys WHERE id = $1 AND merchant_id = $2', [
      input.id,
      merchant.id,
    ]);
    if (!other) throw new ApiError('not_found', `No such key: ${input.id}`, 'id');
    throw new ApiError('invalid_request', 'The current secret key cannot be revoked: roll it (roll_secret_key) to replace it.', 'id');
  },
  { atomic: true },
);

export const rollSecretKey = writeAction(
  'roll_secret_key',
  ({ db, merchant }, input) => roll(db, merchant.id, input.expires_in_seconds ?? 0),
  {
    atomic: true,
    oneTimeSecret: true,
  },
);
