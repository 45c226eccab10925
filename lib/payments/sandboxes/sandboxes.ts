import { ApiError, DEFAULT_SANDBOX_BALANCE, DEFAULT_SANDBOX_LIMIT, SANDBOX_EXPIRY, type Sandbox } from '../../contract';
import type { Queryable } from '../../db/types';
import { generateSecretKey, hashSecretKey, keyHint } from '../pipeline/secret-keys';
import { newId } from '../pipeline/random-id';
import { iso } from '../pipeline/api-object';

/** A sandbox: a merchant of its own, made by its parent (docs/testing-your-integration.md). */

export interface SandboxRow {
  seq: number;
  id: string;
  merchant_id: string;
  name: string;
  initial_balance: number;
  created_at: Date;
  expires_at: Date;
  clock_now: Date | null;
}

export const SANDBOX_COLUMNS = 'seq, id, merchant_id, name, initial_balance, created_at, expires_at, clock_now';
/** Neither deleted nor expired (an expired one waits for the purge; its key already answers 401). */
export const LIVE_SQL = 'deleted_at IS NULL AND expires_at > now()';

export const sandboxObject = (r: SandboxRow): Sandbox => ({
  object: 'sandbox',
  id: r.id,
  merchant_id: r.merchant_id,
  name: r.name,
  balance: Number(r.initial_balance),
  created_at: iso(r.created_at)!,
  expires_at: iso(r.expires_at)!,
  test_clock: iso(r.clock_now),
});

export const sandboxNotFound = (id: string) => new ApiError('not_found', `No such sandbox: ${id}`, 'id');

export interface NewSandbox {
  name?: string;
  balance?: number;
  copy_settings?: boolean;
  expires_in_seconds?: number;
  test_clock?: boolean;
}

/**
 * Makes the sandbox in the parent's transaction: its merchant (with the parent's settings when asked),
 * its secret key (kept as a hash; the key itself is answered once), its balance with an opening entry,
 * and its sandbox row. The parent's merchant row is locked first (FOR NO KEY UPDATE: no foreign key
 * waits on it), so that concurrent creations of one parent count its live sandboxes one after another
 * and the cap holds; other parents never wait.
 */
export async function createSandbox(tx: Queryable, parentId: string, input: NewSandbox, limit = DEFAULT_SANDBOX_LIMIT) {
  const [locked] = await tx.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1 FOR NO KEY UPDATE', [parentId]);
  if (!locked) throw new Error(`merchant ${parentId} authenticated but not found`);
  // A statement of its own: its snapshot is taken after the lock, so it sees the creations that held it before.
  const [{ live }] = (await tx.query<{ live: number }>(`SELECT count(*)::int AS live FROM sandboxes WHERE parent_id = $1 AND ${LIVE_SQL}`, [
    parentId,
  ])) as [{ live: number }];
  const parent = { name: locked.name, live };
  if (parent.live >= limit) {
    throw new ApiError(
      'sandbox_limit',
      `This merchant already has ${parent.live} live sandboxes, the most it may have (${limit}); delete one (delete_sandbox) first.`,
    );
  }
  const merchantId = newId('acct');
  const secretKey = generateSecretKey();
  const name = input.name ?? `${parent.name} sandbox`;
  const balance = input.balance ?? DEFAULT_SANDBOX_BALANCE;
  const copy = input.copy_settings === true;
  await tx.query('INSERT INTO merchants (id, name, currency) SELECT $1, $2, currency FROM merchants WHERE id = $3', [
    merchantId,
    name,
    parentId,
  ]);
  if (copy) {
    await tx.query(
      `UPDATE merchants s SET time_zone = p.time_zone, payout_approval_required = p.payout_approval_required,
         payout_approval_above_amount = p.payout_approval_above_amount, payout_approval_for_keys = p.payout_approval_for_keys
       FROM merchants p WHERE s.id = $1 AND p.id = $2`,
      [merchantId, parentId],
    );
  }
  await tx.query(
    `WITH k AS (INSERT INTO api_keys (id, merchant_id, key_hash, hint) VALUES ($2, $1, $3, $4))
     INSERT INTO balances (merchant_id, currency, available, low_balance_threshold)
     SELECT $1, b.currency, $7, CASE WHEN $6 THEN b.low_balance_threshold END FROM balances b WHERE b.merchant_id = $5`,
    [merchantId, newId('key'), hashSecretKey(secretKey), keyHint(secretKey), parentId, copy, balance],
  );
  // The opening entry at the transaction's time, which is also where a test clock starts: a statement from the
  // clock's start opens with it, as its opening balance.
  await tx.query(
    `INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at)
     SELECT $1, $2, $2, 'opening_balance', $1, now() WHERE $2::bigint > 0`,
    [merchantId, balance],
  );
  const [row] = await tx.query<SandboxRow>(
    `INSERT INTO sandboxes (id, parent_id, merchant_id, name, initial_balance, expires_at, clock_now)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), CASE WHEN $7 THEN now() END) RETURNING ${SANDBOX_COLUMNS}`,
    [
      newId('sbx'),
      parentId,
      merchantId,
      name,
      balance,
      input.expires_in_seconds ?? SANDBOX_EXPIRY.defaultSeconds,
      input.test_clock === true,
    ],
  );
  return { ...sandboxObject(row!), secret_key: secretKey };
}

/** One live sandbox of this parent, locked for the caller's change; 404 otherwise (another merchant's is missing too). */
export async function lockSandbox(tx: Queryable, parentId: string, id: string): Promise<SandboxRow> {
  const [row] = await tx.query<SandboxRow>(
    `SELECT ${SANDBOX_COLUMNS} FROM sandboxes WHERE id = $1 AND parent_id = $2 AND ${LIVE_SQL} FOR UPDATE`,
    [id, parentId],
  );
  if (!row) throw sandboxNotFound(id);
  return row;
}
