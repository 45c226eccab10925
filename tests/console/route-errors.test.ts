// The one place a console route's failure becomes a response: a console store that cannot be
// reached (its sessions, during a database failover) is a 503 to retry, never a 500.
import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '@/console/server/routes/errors';

describe('console route errors', () => {
  it.each([
    ['a cut connection', new Error('Connection terminated unexpectedly')],
    [
      'a node that is no longer the primary',
      Object.assign(new Error('cannot execute UPDATE in a read-only transaction'), { code: '25006' }),
    ],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ])('%s: 503 service_unavailable with Retry-After, not logged as unexpected', async (_, error) => {
    const { response, unexpected } = toErrorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect((await response.json()).error.code).toBe('service_unavailable');
    expect(unexpected).toBe(false);
  });

  it('anything else unexpected is a 500, logged', async () => {
    const { response, unexpected } = toErrorResponse(new TypeError('x is undefined'));
    expect(response.status).toBe(500);
    expect(unexpected).toBe(true);
  });
});
