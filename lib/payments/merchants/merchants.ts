import { DEFAULT_TIME_ZONE } from '../../contract';
import type { Db, Queryable } from '../../db/types';
import { credit } from '../ledger/ledger';
import { newId } from '../pipeline/random-id';
import type { Merchant } from '../pipeline/caller';
import { generateSecretKey, hashSecretKey, keyHint } from '../pipeline/secret-keys';

export interface CreatedMerchant extends Merchant {
  secretKey: string;
  available: number;
}

/**
 * Creates a merchant with a secret key and an opening balance (written to the
 * ledger like any other balance change). The key is returned once, never stored.
 */
export async function createMerchant(
  db: Db,
  input: { name: string; openingBalance: number; currency?: string; secretKey?: string },
): Promise<CreatedMerchant> {
  return db.transaction((tx) => insertMerchant(tx, input));
}

async function insertMerchant(
  tx: Queryable,
  input: { name: string; openingBalance: number; currency?: string; secretKey?: string },
): Promise<CreatedMerchant> {
  if (!Number.isSafeInteger(input.openingBalance) || input.openingBalance < 0) {
    throw new RangeError('opening balance must be a non-negative integer');
  }
  const merchant: Merchant = { id: newId('acct'), name: input.name, currency: input.currency ?? 'IDR', timeZone: DEFAULT_TIME_ZONE };
  const secretKey = input.secretKey ?? generateSecretKey();
  await tx.query('INSERT INTO merchants (id, name, currency) VALUES ($1, $2, $3)', [merchant.id, merchant.name, merchant.currency]);
  await insertKey(tx, merchant.id, secretKey);
  await tx.query('INSERT INTO balances (merchant_id, currency, available) VALUES ($1, $2, 0)', [merchant.id, merchant.currency]);
  if (input.openingBalance > 0) await credit(tx, merchant.id, input.openingBalance, 'opening_balance', merchant.id);
  return { ...merchant, secretKey, available: input.openingBalance };
}

async function insertKey(tx: Queryable, merchantId: string, secretKey: string) {
  await tx.query('INSERT INTO api_keys (id, merchant_id, key_hash, hint) VALUES ($1, $2, $3, $4)', [
    newId('key'),
    merchantId,
    hashSecretKey(secretKey),
    keyHint(secretKey),
  ]);
}

/** Finds the merchant whose active key hashes to this; undefined for unknown, revoked or expired keys. */
export async function merchantForKey(db: Queryable, secretKey: string): Promise<Merchant | undefined> {
  const [row] = await db.query<Merchant>(
    `SELECT m.id, m.name, m.currency, m.time_zone AS "timeZone" FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
     WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
    [hashSecretKey(secretKey)],
  );
  return row;
}

export interface MerchantSummary extends Merchant {
  available: number;
  active_keys: string[];
  created_at: string;
}

export async function listMerchants(db: Queryable): Promise<MerchantSummary[]> {
  const rows = await db.query<Merchant & { available: number; hints: string[] | null; created_at: Date }>(
    `SELECT m.id, m.name, m.currency, m.time_zone AS "timeZone", b.available, m.created_at,
            array_agg(k.hint ORDER BY k.created_at) FILTER (WHERE k.revoked_at IS NULL) AS hints
     FROM merchants m JOIN balances b ON b.merchant_id = m.id LEFT JOIN api_keys k ON k.merchant_id = m.id
     GROUP BY m.id, b.available ORDER BY m.created_at, m.id`,
  );
  return rows.map(({ hints, created_at, ...m }) => ({ ...m, active_keys: hints ?? [], created_at: new Date(created_at).toISOString() }));
}

/** Revokes every active key: the merchant can no longer authenticate until a roll-key. */
export async function revokeKeys(db: Db, merchantId: string): Promise<number> {
  return db.transaction(async (tx) => {
    await requireMerchant(tx, merchantId);
    const rows = await tx.query('UPDATE api_keys SET revoked_at = now() WHERE merchant_id = $1 AND revoked_at IS NULL RETURNING 1', [
      merchantId,
    ]);
    return rows.length;
  });
}

export async function requireMerchant(tx: Queryable, merchantId: string) {
  const rows = await tx.query('SELECT 1 FROM merchants WHERE id = $1', [merchantId]);
  if (rows.length === 0) throw new Error(`no merchant with id ${merchantId}`);
}

export const DEMO_MERCHANT = { name: 'Demo Store', openingBalance: 10_000_000 } as const;

/**
 * On an empty database, creates the demo merchant and returns it with its key
 * (to be printed once). Returns undefined when any merchant exists already.
 */
export async function seedDemoMerchant(db: Db, secretKey?: string): Promise<CreatedMerchant | undefined> {
  return db.transaction(async (tx) => {
    // Instances starting together on one PostgreSQL seed once: the lock orders them.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const [row] = await tx.query<{ n: number }>('SELECT count(*) AS n FROM merchants');
    if (row && row.n > 0) return undefined;
    return insertMerchant(tx, { ...DEMO_MERCHANT, secretKey });
  });
}

const SEED_LOCK = 4_242_002;
