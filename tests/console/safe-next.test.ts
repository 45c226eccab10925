import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../../console/browser/safe-next';
import { groupThousands, parseAmount } from '../../console/browser/components/amount-input';

describe('safeNextPath: where sign-in may send the merchant', () => {
  it('keeps a same-origin path with its query', () => {
    expect(safeNextPath('/payouts/po_1?from=email')).toBe('/payouts/po_1?from=email');
  });
  it.each([
    '//evil.example',
    'https://evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'payouts',
    '',
    '/login',
    undefined,
    ['/a', '/b'],
  ])('refuses %j and falls back to the dashboard', (next) => expect(safeNextPath(next as string)).toBe('/dashboard'));
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
