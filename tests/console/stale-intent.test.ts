// When a stored payout intent may be resent: only while the API still remembers its key.
import { describe, expect, it } from 'vitest';
import { isStale } from '@/console/browser/queries/stored-intent';

const NOW = 1_800_000_000_000;

describe('a stored intent', () => {
  it.each([
    ['sent a second ago, retention a day', { storedAt: NOW - 1_000 }, 86_400, false],
    ['sent 23 h 58 min ago, retention a day (inside the one-minute margin)', { storedAt: NOW - (86_400 - 59) * 1000 }, 86_400, true],
    ['sent 4 s ago, retention 5 s (10% margin)', { storedAt: NOW - 4_000 }, 5, false],
    ['sent 5 s ago, retention 5 s', { storedAt: NOW - 5_000 }, 5, true],
    ['undated (stored by an older console)', {}, 86_400, true],
  ])('%s: stale %s', (_, stored, retention, stale) => {
    expect(isStale(stored, retention, NOW)).toBe(stale);
  });
});
