import { TEST_BANK_CODES, type BankCode } from '../../lib/contract/fields';

/** The supported banks' names, for the bank select (codes from the contract). */
export const BANK_NAMES: Record<BankCode, string> = {
  BCA: 'Bank Central Asia (BCA)',
  BNI: 'Bank Negara Indonesia (BNI)',
  BRI: 'Bank Rakyat Indonesia (BRI)',
  MANDIRI: 'Bank Mandiri',
  PERMATA: 'Bank Permata',
  CIMB: 'CIMB Niaga',
  BSI: 'Bank Syariah Indonesia (BSI)',
  DANAMON: 'Bank Danamon',
};

export const BANKS = TEST_BANK_CODES.map((code) => ({ code, name: BANK_NAMES[code] }));
