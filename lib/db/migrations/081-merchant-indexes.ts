import type { IndexStep } from './migration';

/**
 * The per-merchant indexes of payouts, events and the ledger keyed on merchant_id again, replacing the
 * hashtext(merchant_id) ones of migrations 072-073. An expression index has no statistics of its own
 * until ANALYZE runs: right after a bulk load, or on a server whose autovacuum is off, the planner guessed
 * the selectivity of `hashtext(merchant_id) = hashtext($1)` and walked a merchant's history (a first page
 * of 564 ms at 300,000 pending payouts, 4.6 ms after one ANALYZE). A plain column index is planned from the
 * column's own estimates and the index's size, statistics or not. The 24 bytes an entry saved are paid
 * back (docs/prove.md, "Bytes per settled payout"). Built CONCURRENTLY on PostgreSQL, then the hash ones
 * dropped likewise: writes go on.
 */
export const merchantIndexes: IndexStep[] = [
  { name: 'payouts_merchant_seq', on: 'payouts (merchant_id, seq)' },
  { name: 'payouts_merchant_last4', on: 'payouts (merchant_id, right(account_number, 4), seq)' },
  { name: 'events_merchant_seq', on: 'events (merchant_id, seq)' },
  { name: 'ledger_entries_merchant', on: 'ledger_entries (merchant_id, id)' },
  { name: 'ledger_entries_merchant_time', on: 'ledger_entries (merchant_id, created_at, id)' },
];

export const replacedMerchantHashIndexes = [
  'payouts_merchant_hash_seq',
  'payouts_merchant_hash_last4',
  'events_merchant_hash_seq',
  'ledger_entries_merchant_hash',
  'ledger_entries_merchant_hash_time',
];
