import { describe, expect, it } from 'vitest';
import { AuthFailureLimiter } from '@/lib/payments/auth-failure-limiter';

function limiter(limit: number) {
  let now = 1_000_000;
  const l = new AuthFailureLimiter(limit, 60_000, () => now, 3);
  return { l, advance: (ms: number) => (now += ms) };
}

describe('the failed-authentication limiter', () => {
  it('blocks an address after `limit` failures until its window ends, with the seconds left', () => {
    const { l, advance } = limiter(2);
    l.recordFailure('a');
    expect(l.blockedFor('a')).toBe(0);
    l.recordFailure('a');
    expect(l.blockedFor('a')).toBe(60);
    expect(l.blockedFor('b')).toBe(0);
    advance(45_000);
    expect(l.blockedFor('a')).toBe(15);
    advance(15_000);
    expect(l.blockedFor('a')).toBe(0);
  });

  it('caps failures across all addresses, so forged addresses cannot try without end', () => {
    const { l, advance } = limiter(2);
    for (let i = 0; i < 6; i++) l.recordFailure(`forged-${i}`);
    expect(l.blockedFor('never-seen')).toBeGreaterThan(0);
    advance(60_000);
    expect(l.blockedFor('never-seen')).toBe(0);
  });

  it('stays bounded in memory under a flood of addresses', () => {
    const { l } = limiter(1_000_000);
    for (let i = 0; i < 25_000; i++) l.recordFailure(`addr-${i}`);
    expect((l as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(10_000);
  });
});
