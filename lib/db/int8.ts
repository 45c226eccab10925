/**
 * node-postgres hands BIGINT and NUMERIC back as strings, PGlite as numbers or
 * strings depending on the type. Money is an integer everywhere in this code, so
 * both drivers parse through this one function, which refuses to lose precision.
 */
export function parseMoneyInt(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`integer out of the exact range: ${text}`);
  }
  return value;
}

/** Type OIDs: int8 (BIGINT, COUNT) and numeric (SUM of BIGINT). */
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;
