import { ApiError } from '../../contract';
import { prepared } from '../../db/prepared';
import { ALL_ADDRESSES, failuresNowSql, recordFailure, windowEndsInSql } from '../../db/auth-failures';
import type { Queryable } from '../../db/types';
import type { Logger } from '../../log';
import type { CallerKey, Merchant } from './caller';
import { createGroupQueue } from './group-queue';
import { hashSecretKey, isWellFormedApiKey } from './secret-keys';

const unauthorized = () =>
  new ApiError('unauthorized', 'A valid API key is required: Authorization: Bearer sk_test_... (or a restricted rk_test_...)', undefined, {
    'WWW-Authenticate': 'Bearer realm="payments"',
  });

/**
 * For each (key hash, client address) of `r` (hash, address, ord), in order: the key's merchant
 * and key (if it works: not revoked, not past the grace period of a roll) and this
 * minute's failures of the address and of all addresses (`$3`). One statement for
 * every request that authenticates at once (createAuthenticator).
 */
const authSql = (r: string) =>
  prepared(`SELECT m.id, m.name, m.currency, m.time_zone, k.id AS key_id, k.type AS key_type, k.name AS key_name,
         k.permissions, k.max_payout_amount,
         m.payout_approval_required, m.payout_approval_above_amount, m.payout_approval_for_keys,
         (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS last_use_stale,
         ${failuresNowSql('r.address')} AS failures, ${failuresNowSql('$3')} AS all_failures,
         ${windowEndsInSql} AS retry_after, s.id AS sandbox_id, s.parent_id AS sandbox_parent_id, s.clock_now
  FROM ${r}
  LEFT JOIN api_keys k ON k.key_hash = r.hash AND k.revoked_at IS NULL
  -- A sandbox's key works while the sandbox is neither deleted nor expired; a rolled key's grace ends on its test clock.
  LEFT JOIN sandboxes s ON s.merchant_id = k.merchant_id
  LEFT JOIN merchants m ON m.id = k.merchant_id AND (k.expires_at IS NULL OR k.expires_at > COALESCE(s.clock_now, now()))
    AND (s.id IS NULL OR (s.deleted_at IS NULL AND s.expires_at > now()))
  ORDER BY r.ord`);

/** Several requests at once: `$1`, `$2` are arrays. */
export const AUTH_SQL = authSql('unnest($1::text[], $2::text[]) WITH ORDINALITY AS r(hash, address, ord)');
/**
 * A request alone: `$1`, `$2` are one hash and address. Its own text so that PostgreSQL keeps one
 * generic plan for it: with arrays, a plan for 1 key always looks cheaper than the generic plan's
 * guess of 10, so the array text was planned again at every call (0.65 ms of bind, more than the rest).
 */
export const AUTH_ONE_SQL = authSql('(SELECT $1::text AS hash, $2::text AS address, 1 AS ord) AS r');

interface AuthRow extends Partial<Omit<Merchant, 'timeZone'>> {
  time_zone: string;
  key_id: string;
  key_type: CallerKey['type'];
  key_name: string | null;
  permissions: string[] | null;
  max_payout_amount: number | null;
  payout_approval_required: boolean;
  payout_approval_above_amount: number;
  payout_approval_for_keys: 'restricted' | 'all';
  last_use_stale: boolean;
  failures: number;
  all_failures: number;
  retry_after: number;
  sandbox_id: string | null;
  sandbox_parent_id: string | null;
  clock_now: Date | null;
}

/** Every address together may fail this many times the per-address limit per minute. */
const GLOBAL_FACTOR = 50;

/**
 * Recorded at most once a minute per key, with a conditional update off the
 * request's path: a key's row is never a hot row, and a failure costs nothing.
 */
function recordKeyUse(db: Queryable, key: CallerKey, log: Pick<Logger, 'warn'>, requestId: string | undefined): void {
  db.query(
    `UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [key.id],
  ).catch((err: unknown) => log.warn({ err, requestId }, 'last use of a key not recorded'));
}

/**
 * Resolves `Authorization: Bearer <secret or restricted key>` to its merchant and key. Missing,
 * malformed, unknown and revoked keys all get the same 401, so the answer tells
 * nothing about which merchants exist.
 *
 * Failures are counted per client address and minute in the database (all
 * instances share the count). The limit is read in the same statement as the key
 * and decides before the key does: an address over it gets 429 whatever it sends,
 * so it cannot go on guessing keys. Past a ceiling over all addresses together,
 * failures get 429 too (valid keys still pass: a flood from many addresses must
 * not lock every merchant out).
 *
 * A key's use is recorded (recordKeyUse) once it has authenticated.
 *
 * Requests that authenticate while a look-up is in flight are looked up together
 * in the next one (natural batching, group-queue.ts): one statement and one round
 * trip for all of them, and a lone request goes at once.
 */
export function createAuthenticator(db: Queryable, limitPerMinute: number, log: Pick<Logger, 'warn'>) {
  const lookups = createGroupQueue<{ hash: string; address: string }, AuthRow>({
    maxSize: 500,
    run: async (group) => {
      const rows =
        group.length === 1
          ? await db.query<AuthRow>(AUTH_ONE_SQL, [group[0]!.hash, group[0]!.address, ALL_ADDRESSES])
          : await db.query<AuthRow>(AUTH_SQL, [group.map((g) => g.hash), group.map((g) => g.address), ALL_ADDRESSES]);
      return rows.map((value) => ({ status: 'fulfilled', value }));
    },
  });

  return async function authenticate(
    header: string | null,
    clientAddress: string,
    requestId?: string,
  ): Promise<{ merchant: Merchant; key: CallerKey }> {
    const match = /^bearer +(\S+) *$/i.exec(header ?? '');
    const key = match?.[1];
    const row = await lookups.submit({ hash: key && isWellFormedApiKey(key) ? hashSecretKey(key) : '', address: clientAddress });
    const limited = () =>
      new ApiError('rate_limited', 'Too many failed authentication attempts. Retry later.', undefined, {
        'Retry-After': String(Math.max(1, row.retry_after)),
      });
    if (row.failures >= limitPerMinute) throw limited();
    if (row.id) {
      const key: CallerKey = {
        id: row.key_id,
        type: row.key_type,
        name: row.key_name,
        permissions: row.permissions,
        maxPayoutAmount: row.max_payout_amount,
        lastUseStale: row.last_use_stale,
      };
      if (key.lastUseStale) recordKeyUse(db, key, log, requestId);
      const payoutApproval = {
        required: row.payout_approval_required,
        aboveAmount: row.payout_approval_above_amount,
        forKeys: row.payout_approval_for_keys,
      };
      const sandbox = row.sandbox_id
        ? { id: row.sandbox_id, parentId: row.sandbox_parent_id!, clockNow: row.clock_now === null ? null : new Date(row.clock_now) }
        : undefined;
      return { merchant: { id: row.id, name: row.name!, currency: row.currency!, timeZone: row.time_zone, payoutApproval, sandbox }, key };
    }
    if (row.all_failures >= limitPerMinute * GLOBAL_FACTOR) throw limited();
    await recordFailure(db, [clientAddress, ALL_ADDRESSES]);
    throw unauthorized();
  };
}

export type Authenticate = ReturnType<typeof createAuthenticator>;
