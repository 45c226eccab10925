/**
 * Console session records name the merchant the API answered for, which may live in another
 * deployment's database (PAYMENT_API_BASE_URL): no foreign key to this database's merchants.
 * (Numbered 009: 006-008 are taken by work in flight.)
 */
export const sql = /* sql */ `
ALTER TABLE console_sessions DROP CONSTRAINT IF EXISTS console_sessions_merchant_id_fkey;
`;
