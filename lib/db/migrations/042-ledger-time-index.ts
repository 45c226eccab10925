import type { IndexStep } from './migration';

/**
 * The balance at an instant is the merchant's last entry in time at or before it, ties broken by id
 * (get_balance as_of, statements' opening balances): one descent of (merchant_id, created_at, id). It
 * also serves every created_at range of the ledger, so it replaces (merchant_id, created_at).
 */
export const ledgerTimeIndexes: IndexStep[] = [
  { name: 'ledger_entries_merchant_time', on: 'ledger_entries (merchant_id, created_at, id)' },
];

export const replacedLedgerTimeIndexes = ['ledger_entries_merchant_created'];
