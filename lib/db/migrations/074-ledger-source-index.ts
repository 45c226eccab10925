import type { IndexStep } from './migration';

/**
 * One ledger entry per payout, per reversal and per checkout payment (migration 003's (kind, reference_id)),
 * with the kind's 4-byte hash after the reference instead of its text first: each entry 8 bytes shorter.
 * Exact: the three kinds of its predicate have three different hashes (-1464078096, 619255234,
 * -1657576187). A look-up by source reads it by reference_id and rechecks the kind. Built CONCURRENTLY on
 * PostgreSQL before the old one is dropped: a duplicate is refused throughout.
 */
export const ledgerSourceIndexes: IndexStep[] = [
  {
    name: 'ledger_entries_once_per_source',
    unique: true,
    on: 'ledger_entries (reference_id, hashtext(kind))',
    where: "kind IN ('payout', 'payout_reversal', 'checkout_payment')",
  },
];

export const replacedLedgerSourceIndexes = ['ledger_entries_one_per_source'];
