import type { IndexStep } from './migration';

/**
 * An index for every filter of every read, in the order the read asks for, so that a page costs its
 * rows, not the history behind it (docs/prove.md, "Reads at volume"). Partial where most rows would
 * never be asked for by that filter: a filter on the common value (a paid payout, a payout ledger
 * entry, a succeeded delivery) finds its page at once on the merchant's main index.
 *
 * Keys end in `seq` ascending, read backwards for newest first: rows arrive in `seq` order, so an
 * ascending index fills its pages (new keys go to the right end); the descending ones it replaces
 * took each new key at the left of the merchant's range and split their pages in halves, about
 * twice the bytes per row. Built CONCURRENTLY on PostgreSQL: withdrawals go on while a big table is indexed.
 */
export const readIndexes: IndexStep[] = [
  { name: 'payouts_merchant_seq', on: 'payouts (merchant_id, seq)' },
  // Every status: when settlement lags behind batches, the newest payouts are all pending, and a page of
  // paid ones (the volume bench: 663,000 pending on top) is no longer at the top of payouts_merchant_seq.
  { name: 'payouts_merchant_status', on: 'payouts (merchant_id, status, seq)' },
  // Search by the last four digits (the only digits ever shown): an expression index, not a scan.
  { name: 'payouts_merchant_last4', on: 'payouts (merchant_id, right(account_number, 4), seq)' },
  { name: 'payouts_merchant_created', on: 'payouts (merchant_id, created_at)' },
  { name: 'ledger_entries_merchant_kind', on: 'ledger_entries (merchant_id, kind, id)', where: "kind <> 'payout'" },
  { name: 'ledger_entries_merchant_created', on: 'ledger_entries (merchant_id, created_at)' },
  { name: 'events_merchant_seq', on: 'events (merchant_id, seq)' },
  { name: 'events_merchant_type', on: 'events (merchant_id, type, seq)', where: "type NOT IN ('payout.created', 'payout.paid')" },
  { name: 'request_log_merchant_seq', on: 'request_log (merchant_id, seq)' },
  { name: 'request_log_merchant_action', on: 'request_log (merchant_id, action, seq)' },
  { name: 'request_log_merchant_key', on: 'request_log (merchant_id, key_id, seq)' },
  { name: 'request_log_merchant_failed', on: 'request_log (merchant_id, status, seq)', where: 'status >= 400' },
  { name: 'request_log_merchant_idempotency', on: 'request_log (merchant_id, idempotency_key)', where: 'idempotency_key IS NOT NULL' },
  { name: 'webhook_deliveries_merchant_seq', on: 'webhook_deliveries (merchant_id, seq)' },
  { name: 'webhook_deliveries_merchant_status', on: 'webhook_deliveries (merchant_id, status, seq)', where: "status <> 'succeeded'" },
];

/** The descending indexes the ascending ones above replace. */
export const replacedIndexes = ['payouts_merchant', 'events_merchant', 'request_log_merchant', 'webhook_deliveries_merchant'];
