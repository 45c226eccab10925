import { createHash } from 'node:crypto';
import { ApiError, holderNamesMatch, PAYOUT_FAILURES, TEST_ACCOUNT_HOLDERS } from '../../contract';

/** What the receiving bank says about an account: its holder's name, or why it cannot be paid. */
export interface AccountLookup {
  status: 'valid' | 'invalid';
  holderName: string | null;
  failureCode: 'invalid_account' | null;
}

const FIRST = [
  'Agus',
  'Ayu',
  'Bambang',
  'Citra',
  'Dian',
  'Eko',
  'Fitri',
  'Gita',
  'Hendra',
  'Indah',
  'Joko',
  'Kartika',
  'Lukman',
  'Maya',
  'Nur',
  'Putri',
  'Rudi',
  'Sari',
  'Teguh',
  'Wulan',
];
const LAST = [
  'Wijaya',
  'Saputra',
  'Hidayat',
  'Kusuma',
  'Pratama',
  'Setiawan',
  'Nugroho',
  'Halim',
  'Gunawan',
  'Susanto',
  'Siregar',
  'Lubis',
  'Hakim',
  'Permana',
  'Utami',
  'Wibowo',
];

/**
 * The bank's account look-up, test mode: 4000000001 does not exist (as its
 * payouts fail with invalid_account), the documented test accounts have known
 * holders (TEST_ACCOUNT_HOLDERS), and every other account a made-up name that
 * the same number always gets. No network, no database: a withdrawal is decided
 * before its transaction (withdrawal.ts), and its look-up with it.
 */
export function lookUpAccount(_bankCode: string, accountNumber: string): AccountLookup {
  if (accountNumber === '4000000001') return { status: 'invalid', holderName: null, failureCode: 'invalid_account' };
  const known = TEST_ACCOUNT_HOLDERS[accountNumber];
  if (known) return { status: 'valid', holderName: known, failureCode: null };
  const h = createHash('sha256').update(accountNumber).digest();
  return { status: 'valid', holderName: `${FIRST[h[0]! % FIRST.length]} ${LAST[h[1]! % LAST.length]}`, failureCode: null };
}

/**
 * The holder's name a payout records; with `expected` (the sender's account_holder_name),
 * refused unless the bank's name matches it (the rule: holderNamesMatch).
 */
export function holderForPayout(
  bankCode: string,
  accountNumber: string,
  expected: string | undefined,
  param = 'account_holder_name',
): string | null {
  const found = lookUpAccount(bankCode, accountNumber);
  if (expected === undefined) return found.holderName;
  if (found.status === 'invalid') {
    throw new ApiError('account_name_mismatch', `The account cannot be paid: ${PAYOUT_FAILURES.invalid_account}`, param);
  }
  if (!holderNamesMatch(expected, found.holderName!)) {
    throw new ApiError('account_name_mismatch', `${param} does not match the name the bank holds for this account.`, param);
  }
  return found.holderName;
}
