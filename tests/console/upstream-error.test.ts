// UpstreamError is recognised whichever copy of its module made it: Next bundles lib/upstream once per
// layer, while the adapter (and so the class that throws) is one per process.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '@/lib/upstream/upstream-error';

describe('UpstreamError across module copies', () => {
  it('answers instanceof for its own instances and for an error of another copy of the class', () => {
    const body = { error: { type: 'authentication_error', code: 'unauthorized', message: 'no' } } as const;
    expect(new UpstreamError(401, body)).toBeInstanceOf(UpstreamError);
    // What another bundle's copy of the class makes: the same brand, another prototype.
    const otherCopy: object = Object.assign(new Error('no'), { [Symbol.for('merchant-payments.upstream-error')]: true, status: 401 });
    expect(otherCopy instanceof UpstreamError).toBe(true);
    expect(new Error('no') instanceof UpstreamError).toBe(false);
    const notObjects: unknown[] = [null, 'UpstreamError', { status: 401 }];
    for (const value of notObjects) expect(value instanceof (UpstreamError as unknown as typeof Object)).toBe(false);
  });
});
