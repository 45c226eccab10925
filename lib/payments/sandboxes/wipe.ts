import type { Queryable } from '../../db/types';

/**
 * Deleting a sandbox's rows (reset_sandbox, and the purge of a deleted or expired sandbox). Every
 * statement names the sandbox's own merchant: `merchant_id = $1`, or a batch of that merchant's for
 * the batch counts. Nothing here can reach another merchant's rows, whatever runs meanwhile: a
 * parent's writes touch its own rows only, and the sandbox's key no longer works (delete) or its
 * balance row is locked by the caller (reset).
 */
/** What a reset clears, children before the rows they point at (deliveries, then events and endpoints; refunds, then sessions). */
const ACTIVITY_TABLES = [
  'webhook_deliveries',
  'webhook_endpoints',
  'events',
  'refunds',
  'checkout_sessions',
  // Payouts' row triggers keep the figures below in step; the figures are cleared after them.
  'payouts',
] as const;
const FIGURE_TABLES = [
  'payout_states',
  'payout_daily',
  'ledger_entries',
  'ledger_figures',
  'balance_daily',
  'idempotency_keys',
  'request_log',
  'bank_account_validations',
  'statement_runs',
] as const;

/** Everything the sandbox did, gone; its merchant row, keys, settings and balance row stay (the caller resets the balance). */
export async function wipeActivity(tx: Queryable, merchantId: string): Promise<void> {
  for (const table of ACTIVITY_TABLES) await tx.query(`DELETE FROM ${table} WHERE merchant_id = $1`, [merchantId]);
  await tx.query(`DELETE FROM payout_batch_counts WHERE batch_id IN (SELECT id FROM payout_batches WHERE merchant_id = $1)`, [merchantId]);
  await tx.query(`DELETE FROM payout_batches WHERE merchant_id = $1`, [merchantId]);
  for (const table of FIGURE_TABLES) await tx.query(`DELETE FROM ${table} WHERE merchant_id = $1`, [merchantId]);
  // Reads of the webhook endpoint count stay right after the endpoints went.
  await tx.query('UPDATE merchants SET webhook_endpoint_count = 0 WHERE id = $1', [merchantId]);
}

/** The whole sandbox merchant: its activity, then its sessions, keys, balance, sandbox row and merchant row. */
export async function purgeMerchant(tx: Queryable, merchantId: string): Promise<void> {
  // Locked first: a request-log write for this merchant landing mid-purge (its FK check takes KEY SHARE) waits
  // for the purge and then finds no merchant, rather than slipping a row in under the merchant deleted last.
  await tx.query('SELECT 1 FROM merchants WHERE id = $1 FOR UPDATE', [merchantId]);
  await wipeActivity(tx, merchantId);
  for (const table of ['console_sessions', 'api_keys', 'balances'])
    await tx.query(`DELETE FROM ${table} WHERE merchant_id = $1`, [merchantId]);
  await tx.query('DELETE FROM sandboxes WHERE merchant_id = $1', [merchantId]);
  await tx.query('DELETE FROM merchants WHERE id = $1', [merchantId]);
}
