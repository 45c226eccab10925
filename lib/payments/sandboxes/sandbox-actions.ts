import { ApiError } from '../../contract';
import { readAction, writeAction } from '../pipeline/action';
import { listObject } from '../pipeline/api-object';
import {
  createSandbox as insertSandbox,
  LIVE_SQL,
  lockSandbox,
  SANDBOX_COLUMNS,
  sandboxNotFound,
  sandboxObject,
  type SandboxRow,
} from './sandboxes';
import { wipeActivity } from './wipe';

/**
 * The sandbox actions (docs/testing-your-integration.md). A parent manages its sandboxes by id and
 * never acts as them: nothing here answers a sandbox's key or reads its money. A sandbox's own key
 * manages no sandboxes.
 */

export const createSandbox = writeAction(
  'create_sandbox',
  ({ db, merchant, settings }, input) => {
    if (merchant.sandbox) throw new ApiError('permission_denied', "A sandbox cannot create sandboxes: use its parent's key.");
    return insertSandbox(db, merchant.id, input, settings.sandboxLimit);
  },
  { oneTimeSecret: 'secret_key' },
);

export const listSandboxes = readAction('list_sandboxes', async ({ db, merchant }, input) => {
  const limit = input.limit ?? 10;
  let cursor: number | null = null;
  if (input.starting_after) {
    const [row] = await db.query<{ seq: number }>('SELECT seq FROM sandboxes WHERE id = $1 AND parent_id = $2', [
      input.starting_after,
      merchant.id,
    ]);
    if (!row) throw new ApiError('not_found', `No such sandbox: ${input.starting_after}`, 'starting_after');
    cursor = row.seq;
  }
  const rows = await db.query<SandboxRow>(
    `SELECT ${SANDBOX_COLUMNS} FROM sandboxes WHERE parent_id = $1 AND ${LIVE_SQL} AND ($2::bigint IS NULL OR seq < $2::bigint)
     ORDER BY seq DESC LIMIT $3`,
    [merchant.id, cursor, limit + 1],
  );
  return listObject(rows.slice(0, limit).map(sandboxObject), rows.length > limit);
});

export const getSandbox = readAction('get_sandbox', async ({ db, merchant }, input) => {
  const [row] = await db.query<SandboxRow>(`SELECT ${SANDBOX_COLUMNS} FROM sandboxes WHERE id = $1 AND parent_id = $2 AND ${LIVE_SQL}`, [
    input.id,
    merchant.id,
  ]);
  if (!row) throw sandboxNotFound(input.id);
  return sandboxObject(row);
});

/**
 * Marks the sandbox deleted: authentication refuses its keys from the next request on (the key look-up
 * reads this row), and the purge job deletes its rows a few seconds later, off the request's path, so
 * that a delete costs the same with a thousand payouts as with none.
 */
export const deleteSandbox = writeAction(
  'delete_sandbox',
  async ({ db, merchant }, input) => {
    const [row] = await db.query<{ id: string }>(
      `UPDATE sandboxes SET deleted_at = now() WHERE id = $1 AND parent_id = $2 AND ${LIVE_SQL} RETURNING id`,
      [input.id, merchant.id],
    );
    if (!row) throw sandboxNotFound(input.id);
    return { object: 'sandbox' as const, id: row.id, deleted: true as const };
  },
  { atomic: true },
);

/**
 * Back to where it began: the sandbox's balance row is locked first (its own requests wait, as they
 * would behind any change of its balance), then its activity is deleted and its balance set to the
 * opening amount with a fresh opening entry. Its id, keys, settings and clock stay.
 */
export const resetSandbox = writeAction('reset_sandbox', async ({ db, merchant }, input) => {
  const sandbox = await lockSandbox(db, merchant.id, input.id);
  await db.query('SELECT 1 FROM balances WHERE merchant_id = $1 FOR UPDATE', [sandbox.merchant_id]);
  await wipeActivity(db, sandbox.merchant_id);
  await db.query(
    `WITH b AS (UPDATE balances SET available = $2, pending_payouts = 0, awaiting_approval = 0, pending_refunds = 0, updated_at = now()
                WHERE merchant_id = $1 RETURNING merchant_id)
     INSERT INTO ledger_entries (merchant_id, amount, balance_after, kind, reference_id, created_at)
     SELECT merchant_id, $2, $2, 'opening_balance', merchant_id, COALESCE($3::timestamptz, now()) FROM b WHERE $2::bigint > 0`,
    // A sandbox with a test clock begins again at its clock's time.
    [sandbox.merchant_id, sandbox.initial_balance, sandbox.clock_now],
  );
  return sandboxObject(sandbox);
});
