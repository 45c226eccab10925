// Next gives each page and route bundle its own copy of a module, while the adapter that throws
// UpstreamError is one per process: an error thrown by one copy must be recognised by another.
import { expect, it, vi } from 'vitest';

it('is recognised by instanceof across two copies of its module', async () => {
  const first = await import('@/console/server/upstream/upstream-error');
  vi.resetModules();
  const second = await import('@/console/server/upstream/upstream-error');
  expect(second.UpstreamError).not.toBe(first.UpstreamError);
  const error = new first.UpstreamError(401, { error: { type: 'authentication_error', code: 'unauthorized', message: 'no' } });
  expect(error instanceof second.UpstreamError).toBe(true);
  expect(new Error('no') instanceof second.UpstreamError).toBe(false);
  expect(error.status).toBe(401);
});
