import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../../lib/client/safe-next';
import { errorMessage, fieldMessage } from '../../lib/client/messages';
import { groupThousands, parseAmount } from '../../components/amount-input';

describe('safeNextPath: where sign-in may send the merchant', () => {
  it('keeps a same-origin path with its query', () => {
    expect(safeNextPath('/payouts/po_1?from=email')).toBe('/payouts/po_1?from=email');
  });
  it.each(['//evil.example', 'https://evil.example/x', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'javascript:alert(1)', 'payouts', '', '/login', undefined, ['/a', '/b']])(
    'refuses %j and falls back to the dashboard',
    (next) => expect(safeNextPath(next as string)).toBe('/dashboard'),
  );
});

// Intl puts a no-break space between the currency and the number.
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('one mapping from error to words', () => {
  it('names the limit in IDR', () => {
    expect(plain(fieldMessage('amount', { code: 'too_big', input: 1e9 })!)).toBe('Amount must be at most IDR 100,000,000.');
    expect(plain(errorMessage({ code: 'invalid_request', param: 'amount', message: 'amount must be at least 10000' }).text)).toBe('Amount must be at least IDR 10,000.');
  });
  it('keeps the API code as a detail, and the API text when it has no sentence', () => {
    expect(errorMessage({ code: 'insufficient_funds', message: 'x' })).toEqual({ text: 'Your available balance does not cover this amount.', code: 'insufficient_funds' });
    expect(errorMessage({ code: 'something_new', message: 'raw' }).text).toBe('raw');
  });
  it('words a refusal that names a field by its code, not as a bad value', () => {
    const limit = errorMessage({ code: 'payout_limit_exceeded', param: 'amount', message: "amount 60000 is above this key's max_payout_amount of 50000." });
    expect(limit.text).toBe('This amount is above the payout limit of the key you signed in with.');
    expect(errorMessage({ code: 'permission_denied', message: 'This restricted key lacks the permission payouts:write' }).text).toMatch(/not allowed/);
  });
});

describe('amount text', () => {
  it('groups thousands as typed and parses to the exact integer', () => {
    expect(groupThousands('1234567')).toBe('1,234,567');
    expect(groupThousands('12.5')).toBe('12.5');
    expect(parseAmount('1,234,567')).toBe(1_234_567);
    expect(parseAmount('12.5')).toBeNaN();
    expect(parseAmount('')).toBeUndefined();
  });
});
