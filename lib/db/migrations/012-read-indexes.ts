import type { IndexStep } from './migration';

/**
 * An index for every filter of every read, in the order the read asks for (newest first), so that
 * a page costs its rows, not the history behind it (docs/prove.md, "Reads at volume"). Partial
 * where most rows would never be asked for by that filter: a filter on the common value (a paid
 * payout, a payout ledger entry, a succeeded delivery) finds its page at once on the merchant's
 * main index. Built CONCURRENTLY on PostgreSQL: withdrawals go on while a big table is indexed.
 */
export const readIndexes: IndexStep[] = [
  // Paid is most payouts: a page of them is found at once on payouts_merchant.
  { name: 'payouts_merchant_status', on: 'payouts (merchant_id, status, seq DESC)', where: "status <> 'paid'" },
  // Search by the last four digits (the only digits ever shown): an expression index, not a scan.
  { name: 'payouts_merchant_last4', on: 'payouts (merchant_id, right(account_number, 4), seq DESC)' },
  { name: 'payouts_merchant_created', on: 'payouts (merchant_id, created_at)' },
  { name: 'ledger_entries_merchant_kind', on: 'ledger_entries (merchant_id, kind, id)', where: "kind <> 'payout'" },
  { name: 'ledger_entries_merchant_created', on: 'ledger_entries (merchant_id, created_at)' },
  { name: 'events_merchant_type', on: 'events (merchant_id, type, seq DESC)', where: "type NOT IN ('payout.created', 'payout.paid')" },
  { name: 'request_log_merchant_action', on: 'request_log (merchant_id, action, seq DESC)' },
  { name: 'request_log_merchant_key', on: 'request_log (merchant_id, key_id, seq DESC)' },
  { name: 'request_log_merchant_failed', on: 'request_log (merchant_id, status, seq DESC)', where: 'status >= 400' },
  { name: 'request_log_merchant_idempotency', on: 'request_log (merchant_id, idempotency_key)', where: 'idempotency_key IS NOT NULL' },
  { name: 'webhook_deliveries_merchant_status', on: 'webhook_deliveries (merchant_id, status, seq DESC)', where: "status <> 'succeeded'" },
];
