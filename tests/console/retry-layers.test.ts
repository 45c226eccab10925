// The browser's write retries and the console's upstream adapter together: one click is at most
// MAX_ATTEMPTS attempts at the payment API (not the browser's attempts times the SDK's), all under one
// idempotency key, never a second payout, within one overall bound, and the page can say which attempt it is on.
// The browser's layer is react-query's own MutationObserver with the console's policy (retry-policy.ts);
// the route between the two is modelled by what it does with an UpstreamError (its status and code).
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ConsoleRequestError } from '@/console/browser/queries/console-fetch';
import { MAX_ATTEMPTS, retryWrite, stillTrying, writeRetryDelay } from '@/console/browser/queries/retry-policy';
import { merchantApi } from '@/console/server/upstream/merchant-api';
import { createPaymentClient } from '@/console/server/upstream/payment-client';
import { UpstreamError } from '@/console/server/upstream/upstream-error';
import { useTestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';
import { startFaultProxy, type Fault } from './fault-proxy';

// The real API on node:http over a fresh embedded database, for the whole file.
const testApi = useTestApi(pgliteBackend);

// Long enough that a busy machine never cuts an attempt the API answers: the faults here drop connections, they do not hang.
const UPSTREAM_TIMEOUT_MS = 5_000;

/** One click on "Send payout": the browser's layer over the route's one upstream attempt, through a faulty network. */
async function click(amount: number, faults: Fault[], fallback?: Fault) {
  const proxy = await startFaultProxy(testApi().url, faults, { fallback, hangMs: 1_000 });
  const merchant = merchantApi(createPaymentClient({ baseUrl: proxy.url, timeoutMs: UPSTREAM_TIMEOUT_MS }), testApi().merchant.secretKey);
  const observer = new MutationObserver(new QueryClient(), {
    mutationFn: (vars: { idempotency_key: string }) =>
      merchant.withdraw({ amount, bank_code: 'BCA', account_number: '1234567890' }, vars.idempotency_key).catch((error) => {
        // What the route answers and consoleFetch turns back into an error.
        if (error instanceof UpstreamError) throw new ConsoleRequestError(error.status, error.body.error.code, error.body.error.message);
        throw error;
      }),
    retry: retryWrite,
    retryDelay: writeRetryDelay,
  });
  const shown: string[] = [];
  observer.subscribe((state) => {
    if (state.isPending && state.failureCount > 0) shown.push(stillTrying(state.failureCount));
  });
  const started = Date.now();
  const outcome = await observer.mutate({ idempotency_key: `click-${amount}` }).then(
    (r) => ({ ok: true as const, replayed: r.replayed }),
    (e: ConsoleRequestError) => ({ ok: false as const, error: e }),
  );
  await proxy.close();
  return { outcome, seen: proxy.seen, shown: [...new Set(shown)], ms: Date.now() - started };
}

const payoutsOf = async (amount: number) =>
  (
    await testApi().db.query<{ n: number }>('SELECT count(*)::int AS n FROM payouts WHERE merchant_id = $1 AND amount = $2', [
      testApi().merchant.id,
      amount,
    ])
  )[0]!.n;

describe('one retry layer for a write', () => {
  it('two lost answers: three upstream attempts under one key, one payout, the page says attempt 2 then 3 of 4', async () => {
    const { outcome, seen, shown } = await click(51_001, ['drop-after-processing', 'drop-after-processing']);
    expect(outcome).toEqual({ ok: true, replayed: true });
    expect(seen.map((s) => s.idempotencyKey)).toEqual(Array(3).fill('click-51001'));
    expect(shown).toEqual(['Still trying, attempt 2 of 4', 'Still trying, attempt 3 of 4']);
    expect(await payoutsOf(51_001)).toBe(1);
  });

  it('an API that never answers: exactly MAX_ATTEMPTS upstream attempts, not the product of two layers, within the bound', async () => {
    const { outcome, seen, shown, ms } = await click(51_002, [], 'drop-after-processing');
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error.outcomeUnknown).toBe(true);
    expect(seen).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(seen.map((s) => s.idempotencyKey))).toEqual(new Set(['click-51002']));
    expect(shown).toEqual(['Still trying, attempt 2 of 4', 'Still trying, attempt 3 of 4', 'Still trying, attempt 4 of 4']);
    expect(await payoutsOf(51_002)).toBe(1);
    // 1 s + 2 s + 4 s between attempts, and each attempt bounded by the upstream timeout.
    expect(ms).toBeGreaterThanOrEqual(7_000);
    expect(ms).toBeLessThan(7_000 + MAX_ATTEMPTS * UPSTREAM_TIMEOUT_MS + 5_000);
    const ledger = await ledgerCheck(testApi().db, testApi().merchant.id);
    expect(ledger.available).toBe(ledger.ledger);
  });

  it('a refusal is final: one attempt, no retry', async () => {
    const { outcome, seen, shown } = await click(100_000_000, []);
    expect(!outcome.ok && [outcome.error.status, outcome.error.code]).toEqual([422, 'insufficient_funds']);
    expect(seen).toHaveLength(1);
    expect(shown).toEqual([]);
  });
});
