/**
 * The index condition of a merchant's rows in the tables whose per-merchant indexes key on
 * hashtext(merchant_id) (migration 072: 4 bytes in every entry instead of the 30-byte id). The planner
 * only uses such an index for that very expression, so every read by merchant of these tables adds it,
 * beside `merchant_id = …`, which rechecks each row: a merchant sharing a hash is read, never answered.
 */
export const MERCHANT_HASHED_TABLES: ReadonlySet<string> = new Set(['payouts', 'events', 'ledger_entries']);

/** `hashtext(<column>) = hashtext(<param>)`, to AND with `<column> = <param>`. */
export const merchantKeySql = (param: string, column = 'merchant_id') => `hashtext(${column}) = hashtext(${param}::text)`;
