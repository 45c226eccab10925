/** Test top-ups (create_test_topup) are ledger entries of their own kind. */
export const sql = /* sql */ `
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('opening_balance', 'adjustment', 'payout', 'payout_reversal', 'checkout_payment', 'topup'));
`;
