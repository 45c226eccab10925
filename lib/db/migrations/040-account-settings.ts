/**
 * The merchant's account settings: the IANA zone its periods are read in (Asia/Jakarta until it says
 * otherwise) and the low-balance threshold (null: no alert). A constant default adds the column
 * without rewriting the table.
 */
export const sql = /* sql */ `
ALTER TABLE merchants
  ADD COLUMN time_zone text NOT NULL DEFAULT 'Asia/Jakarta',
  ADD COLUMN low_balance_threshold bigint CHECK (low_balance_threshold >= 0);
`;
