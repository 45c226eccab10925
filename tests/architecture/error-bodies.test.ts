// Every error body comes from the contract's one table (lib/contract/errors.ts: ApiError, errorAnswer):
// a body written by hand elsewhere can pair a code with the wrong type or status, as a 500 typed
// invalid_request_error once did.
import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './source-files';

/** `{ error: { type: '…'` or `{"error":{"type":"…"`: an error body with its type written out. */
const HAND_WRITTEN = /["']?error["']?\s*:\s*\{\s*["']?type["']?\s*:\s*["'`]/;

describe('error bodies', () => {
  it('are written only by lib/contract', () => {
    const found = sourceFiles(['app', 'lib', 'console', 'scripts', 'packages/sdk/src'])
      .concat(['proxy.ts', 'instrumentation.ts'])
      .filter((f) => !f.startsWith('lib/contract/'))
      .flatMap((file) =>
        readSource(file)
          .split('\n')
          .flatMap((line, i) => (HAND_WRITTEN.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it('the check catches both ways of writing one by hand', () => {
    expect(HAND_WRITTEN.test(`const X = '{"error":{"type":"api_error","code":"internal_error"}}';`)).toBe(true);
    expect(HAND_WRITTEN.test(`send(500, { error: { type: 'invalid_request_error', code: 'invalid_request' } });`)).toBe(true);
    expect(HAND_WRITTEN.test(`new UpstreamError(status, { error: { type, code, message } })`)).toBe(false);
  });
});
