import type { IndexStep } from './migration';

/**
 * The per-merchant indexes of the history tables that a settled payout adds a row to, keyed on
 * hashtext(merchant_id), 4 bytes, instead of the 30-byte merchant id: each entry 24 bytes shorter, about
 * 150 bytes per settled payout (docs/prove.md, "Bytes per settled payout"). Every read through them says
 * `hashtext(merchant_id) = hashtext($1)` (the index condition) and keeps `merchant_id = $1` (each row
 * rechecked): two merchants with one hash only read each other's rows, never answer them
 * (lib/db/merchant-index.ts). Same orders as the indexes they replace. Built CONCURRENTLY on
 * PostgreSQL, then the old ones dropped likewise: writes go on.
 */
export const merchantHashIndexes: IndexStep[] = [
  { name: 'payouts_merchant_hash_seq', on: 'payouts (hashtext(merchant_id), seq)' },
  { name: 'payouts_merchant_hash_last4', on: 'payouts (hashtext(merchant_id), right(account_number, 4), seq)' },
  { name: 'events_merchant_hash_seq', on: 'events (hashtext(merchant_id), seq)' },
  { name: 'ledger_entries_merchant_hash', on: 'ledger_entries (hashtext(merchant_id), id)' },
];

export const replacedMerchantIndexes = ['payouts_merchant_seq', 'payouts_merchant_last4', 'events_merchant_seq', 'ledger_entries_merchant'];
