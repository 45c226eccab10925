// The console's words for statuses, reasons and kinds (console/browser/labels.ts): one for every code of the
// contract's lists (type-checking holds the tables to the lists; this holds the words to being words).
import { describe, expect, it } from 'vitest';
import {
  BALANCE_KIND,
  CHECKOUT_STATUS,
  DELIVERY_STATUS,
  EVENT_TYPE,
  PAYOUT_FAILURE,
  PAYOUT_RETURN,
  PAYOUT_STATUS,
  RAW_CODES,
  REFUND_STATUS,
  balanceKindLabel,
  payoutStatusLabel,
} from '@/console/browser/labels';
import { BALANCE_TRANSACTION_TYPES, PAYOUT_FAILURE_CODES, PAYOUT_RETURN_CODES, PAYOUT_STATUSES } from '@/lib/contract';
import { countOf, formatMoney } from '@/lib/format';

describe('labels', () => {
  it('every label is words: no code, underscore or dot in it', () => {
    const words = [
      ...Object.values(PAYOUT_STATUS).map((s) => s.label),
      ...Object.values(CHECKOUT_STATUS).map((s) => s.label),
      ...Object.values(REFUND_STATUS).map((s) => s.label),
      ...Object.values(DELIVERY_STATUS).map((s) => s.label),
      ...Object.values(PAYOUT_FAILURE),
      ...Object.values(PAYOUT_RETURN),
      ...Object.values(BALANCE_KIND),
      ...Object.values(EVENT_TYPE),
    ];
    for (const w of words) expect(w).toMatch(/^[A-Za-z][a-z ,:'-]*$/);
  });

  it('a payout reads with its reason, a failure and a return alike', () => {
    expect(payoutStatusLabel({ status: 'awaiting_approval', failure_code: null })).toBe('Awaiting approval');
    expect(payoutStatusLabel({ status: 'failed', failure_code: 'rejected_by_bank' })).toBe('Failed: the bank rejected it');
    expect(payoutStatusLabel({ status: 'returned', failure_code: 'account_closed' })).toBe('Returned: account closed');
    // A code the API adds later still reads as words.
    expect(payoutStatusLabel({ status: 'failed', failure_code: 'bank_offline' })).toBe('Failed: bank offline');
    expect(balanceKindLabel('topup')).toBe('Test top-up');
    expect(balanceKindLabel('fee_charge')).toBe('Fee charge');
  });

  it('the raw codes the console must never show in a table or heading', () => {
    expect(RAW_CODES).toEqual(
      expect.arrayContaining(['awaiting_approval', 'rejected_by_bank', 'account_closed', 'payout_reversal', 'checkout_payment']),
    );
    const all: string[] = [
      ...PAYOUT_STATUSES,
      ...PAYOUT_FAILURE_CODES,
      ...PAYOUT_RETURN_CODES,
      ...BALANCE_TRANSACTION_TYPES,
      'expired_or_canceled_card',
    ];
    expect([...RAW_CODES].sort()).toEqual([...new Set(all.filter((c) => c.includes('_')))].sort());
  });
});

describe('amounts and counts', () => {
  it('one sign convention: the true minus, a plus on a signed change', () => {
    expect(formatMoney(6_750_000, 'IDR')).toBe('IDR\u00a06,750,000');
    expect(formatMoney(-6_750_000, 'IDR')).toBe('\u2212IDR\u00a06,750,000');
    expect(formatMoney(6_750_000, 'IDR', { signed: true })).toBe('+IDR\u00a06,750,000');
    expect(formatMoney(-6_750_000, 'IDR', { signed: true })).toBe('\u2212IDR\u00a06,750,000');
    expect(formatMoney(0, 'IDR', { signed: true })).toBe('IDR\u00a00');
  });

  it('the noun agrees with the count', () => {
    expect(countOf(1, 'balance change')).toBe('1 balance change');
    expect(countOf(0, 'payout')).toBe('0 payouts');
    expect(countOf(1_204, 'payout')).toBe('1,204 payouts');
    expect(countOf(1, 'payout waits', 'payouts wait')).toBe('1 payout waits');
  });
});
