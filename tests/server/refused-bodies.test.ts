// Behind the web adapter (web Request bodies), the rest of a refused request's body is read and discarded, within bounds.
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/log';
import { createPaymentCore } from '@/lib/payments/payment-api';
import { webPaymentApi } from '@/lib/payments/web-adapter';
import { pgliteBackend } from '../helpers/databases';

/** A body of `size` bytes in 16 KiB chunks that records how much of it was read. */
function trackedBody(size: number) {
  const seen = { bytes: 0, cancelled: false };
  let left = size;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (left <= 0) return c.close();
      const n = Math.min(16 * 1024, left);
      left -= n;
      seen.bytes += n;
      c.enqueue(new Uint8Array(n).fill(0x78));
    },
    cancel: () => void (seen.cancelled = true),
  });
  return { stream, seen };
}

describe('refused requests', async () => {
  const db = await pgliteBackend.open();
  afterAll(() => db.close());
  const api = webPaymentApi(
    createPaymentCore({
      db,
      log: createLogger({ level: 'silent' }),
      settings: { idempotencyTtlSeconds: 60, idempotencyWaitSeconds: 1, settlementDelaySeconds: 1, authFailuresPerMinute: 1000 },
    }),
  );
  const send = (size: number, headers: Record<string, string>) => {
    const { stream, seen } = trackedBody(size);
    const req = new Request('http://x/v1/index.php', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
    return api(req).then((res) => ({ status: res.status, seen }));
  };

  it.each([
    ['a wrong key (401)', { authorization: 'Bearer nope', 'content-type': 'application/json' }, 401],
    ['no key at all (401)', { 'content-type': 'text/plain' }, 401],
  ])('reads the whole unread body of a request refused for %s', async (_name, headers, status) => {
    const { status: got, seen } = await send(300 * 1024, headers);
    expect(got).toBe(status);
    expect(seen).toEqual({ bytes: 300 * 1024, cancelled: false });
  });

  it('abandons a body past the 2 MiB bound instead of reading it all', async () => {
    const { seen } = await send(10 * 1024 * 1024, { authorization: 'Bearer nope' });
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThan(3 * 1024 * 1024);
  });
});
