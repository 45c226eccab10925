import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` uniform base62 characters from the OS CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Resource ids: a type prefix and 24 random characters (`po_...`, `cs_...`, `acct_...`). */
export const newId = (prefix: 'po' | 'pb' | 'cs' | 'tu' | 'acct' | 'key' | 'sess' | 'we' | 're' | 'bav' | 'sbx') =>
  `${prefix}_${randomBase62(24)}`;
