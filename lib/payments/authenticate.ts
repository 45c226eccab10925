import { ApiError } from '../contract';
import { ALL_ADDRESSES, failuresNowSql, recordFailure, windowEndsInSql } from '../db/auth-failures';
import type { Queryable } from '../db/types';
import type { Merchant } from './merchants';
import { hashSecretKey, isWellFormedSecretKey } from './secret-keys';

const unauthorized = () =>
  new ApiError('unauthorized', 'A valid secret key is required: Authorization: Bearer sk_test_...', undefined, {
    'WWW-Authenticate': 'Bearer realm="payments"',
  });

/** The key's merchant (if any) and this minute's failures of the address and of all addresses: one round trip. */
export const AUTH_SQL = `SELECT m.id, m.name, m.currency, ${failuresNowSql('$2')} AS failures, ${failuresNowSql('$3')} AS all_failures,
         ${windowEndsInSql} AS retry_after
  FROM (SELECT 1) one
  LEFT JOIN api_keys k ON k.key_hash = $1 AND k.revoked_at IS NULL
  LEFT JOIN merchants m ON m.id = k.merchant_id`;

/** Every address together may fail this many times the per-address limit per minute. */
const GLOBAL_FACTOR = 50;

/**
 * Resolves `Authorization: Bearer <secret key>` to its merchant. Missing,
 * malformed, unknown and revoked keys all get the same 401, so the answer tells
 * nothing about which merchants exist.
 *
 * Failures are counted per client address and minute in the database (all
 * instances share the count). The limit is read in the same statement as the key
 * and decides before the key does: an address over it gets 429 whatever it sends,
 * so it cannot go on guessing keys. Past a ceiling over all addresses together,
 * failures get 429 too (valid keys still pass: a flood from many addresses must
 * not lock every merchant out).
 */
export async function authenticate(db: Queryable, header: string | null, clientAddress: string, limitPerMinute: number): Promise<Merchant> {
  const match = /^bearer +(\S+) *$/i.exec(header ?? '');
  const key = match?.[1];
  const [row] = await db.query<Partial<Merchant> & { failures: number; all_failures: number; retry_after: number }>(AUTH_SQL, [
    key && isWellFormedSecretKey(key) ? hashSecretKey(key) : '',
    clientAddress,
    ALL_ADDRESSES,
  ]);
  const limited = () =>
    new ApiError('rate_limited', 'Too many failed authentication attempts. Retry later.', undefined, {
      'Retry-After': String(Math.max(1, row!.retry_after)),
    });
  if (row!.failures >= limitPerMinute) throw limited();
  if (row!.id) return { id: row!.id, name: row!.name!, currency: row!.currency! };
  if (row!.all_failures >= limitPerMinute * GLOBAL_FACTOR) throw limited();
  await recordFailure(db, [clientAddress, ALL_ADDRESSES]);
  throw unauthorized();
}
