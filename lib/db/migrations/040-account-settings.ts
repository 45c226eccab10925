/**
 * The merchant's account settings: the IANA zone its periods are read in (Asia/Jakarta until it says
 * otherwise). A constant default adds the column without rewriting the table. The low-balance
 * threshold lives on the balance row it is compared with (migration 45).
 */
export const sql = /* sql */ `
ALTER TABLE merchants ADD COLUMN time_zone text NOT NULL DEFAULT 'Asia/Jakarta';
`;
