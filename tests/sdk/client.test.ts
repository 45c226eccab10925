// The SDK against a real API server, through a proxy that injects faults: retries with the same key, and no fault sends money twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { PaymentApiError, PaymentConnectionError, PaymentsClient, type PaymentsClientOptions } from '@/packages/sdk/src';
import { startFaultProxy, type Fault } from '../console/fault-proxy';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { pgliteBackend } from '../../testing/databases';
import { ledgerCheck } from '../../testing/ledger';

let db: Db;
let api: TestApi;
const payout = { amount: 50_000, bank_code: 'BCA' as const, account_number: '1234567890' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeAll(async () => {
  db = await pgliteBackend.open();
  api = await startTestApi(db, { openingBalance: 50_000_000, settings: { settlementDelaySeconds: 3600 } });
});
afterAll(async () => {
  await api.close();
  await db.close();
});

const proxies: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const p of proxies) await p.close();
});

/** A client through a proxy that misbehaves as told; waits are recorded, not slept. */
async function through(faults: Fault[], opts: { fallback?: Fault; hangMs?: number } & Partial<PaymentsClientOptions> = {}) {
  const proxy = await startFaultProxy(api.url, faults, { fallback: opts.fallback, hangMs: opts.hangMs ?? 1_000 });
  proxies.push(proxy);
  const slept: number[] = [];
  const client = new PaymentsClient({
    secretKey: api.merchant.secretKey,
    baseUrl: proxy.url,
    timeoutMs: 400,
    sleep: async (ms) => void slept.push(ms),
    ...opts,
  });
  return { proxy, slept, client };
}

const ledger = () => ledgerCheck(db, api.merchant.id);

describe('PaymentsClient against the real API', () => {
  it('reads the balance with getBalance(), typed', async () => {
    const client = new PaymentsClient({ secretKey: api.merchant.secretKey, baseUrl: api.url });
    const { data, replayed, requestId } = await client.getBalance();
    expect(data).toMatchObject({ object: 'balance', currency: 'IDR', merchant: { id: api.merchant.id } });
    expect(replayed).toBe(false);
    expect(requestId).toMatch(/^req_/);
  });

  it('gives every state-changing call a UUID idempotency key, reads none; a repeat with a given key is replayed', async () => {
    // No fault here: a generous attempt limit, so a slow first answer on a busy machine is not retried.
    const { client, proxy } = await through([], { timeoutMs: 30_000 });
    const first = await client.withdraw(payout);
    expect(first.idempotencyKey).toMatch(UUID);
    await client.getPayout({ id: first.data.id });
    expect(proxy.seen.map((s) => s.idempotencyKey)).toEqual([first.idempotencyKey, undefined]);
    const a = await client.withdraw(payout, { idempotencyKey: 'sdk-replay-1' });
    const b = await client.withdraw(payout, { idempotencyKey: 'sdk-replay-1' });
    expect([a.replayed, b.replayed, b.data.id]).toEqual([false, true, a.data.id]);
    expect(proxy.seen[0]!.authorization).toBe(`Bearer ${api.merchant.secretKey}`);
  });

  it.each<[string, Fault[], number[], boolean]>([
    ['a dropped response', ['drop-after-processing'], [1000], true],
    ['two dropped responses', ['drop-after-processing', 'drop-after-processing'], [1000, 2000], true],
    ['a reset before the request arrived', ['reset-before-processing'], [1000], false],
    ['a timeout while the API worked', ['timeout-after-processing'], [1000], true],
    ['a slow answer past the attempt timeout', ['slow-answer'], [1000], true],
    ['a 503 from a gateway', ['http-503'], [1000], false],
    ['a 409 "in progress"', ['in-progress-409'], [1000], false],
    ['a 429 with a longer Retry-After (3 s)', ['rate-limited-429'], [3000], false],
    ['every fault in turn', ['reset-before-processing', 'http-503', 'rate-limited-429'], [1000, 2000, 4000], false],
  ])('retries after %s with the same key, and exactly one payout exists', async (_name, faults, waits, replayed) => {
    const before = await ledger();
    const { client, proxy, slept } = await through(faults);
    const result = await client.withdraw(payout);
    expect(result.data.status).toBe('pending');
    expect(result.replayed).toBe(replayed);
    expect(slept).toEqual(waits);
    expect(new Set(proxy.seen.map((s) => s.idempotencyKey))).toEqual(new Set([result.idempotencyKey]));
    const after = await ledger();
    expect(after.payouts).toBe(before.payouts + 1);
    expect(after.available).toBe(before.available - payout.amount);
    expect(after.available).toBe(after.ledger);
    expect(after.pending).toBe(after.pendingSum);
  });

  it('gives up after 1 s, 2 s, 4 s with the outcome unknown, and the key to retry with later; still one payout', async () => {
    const before = await ledger();
    const { client, proxy, slept } = await through([], { fallback: 'drop-after-processing' });
    const error = await client.withdraw(payout).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentConnectionError);
    expect(error.idempotencyKey).toMatch(UUID);
    expect(slept).toEqual([1000, 2000, 4000]);
    expect(proxy.seen).toHaveLength(4);
    expect((await ledger()).payouts).toBe(before.payouts + 1);
    // Later, the same key: the payout comes back, nothing more is sent.
    const direct = new PaymentsClient({ secretKey: api.merchant.secretKey, baseUrl: api.url });
    const later = await direct.withdraw(payout, { idempotencyKey: error.idempotencyKey });
    expect(later.replayed).toBe(true);
    expect((await ledger()).payouts).toBe(before.payouts + 1);
  });

  it('caps a long Retry-After at maxRetryDelayMs, and maxRetries bounds the attempts', async () => {
    const { client, slept, proxy } = await through([], { fallback: 'rate-limited-429', maxRetries: 2, maxRetryDelayMs: 2500 });
    const error = await client.getBalance().catch((e) => e);
    expect(error).toBeInstanceOf(PaymentApiError);
    expect([error.status, error.code, error.type]).toEqual([429, 'rate_limited', 'rate_limit_error']);
    expect(slept).toEqual([2500, 2500]);
    expect(proxy.seen).toHaveLength(3);
  });

  it.each([
    ['a validation error', { ...payout, amount: 5 }, 400, 'invalid_request', 'amount'],
    ['insufficient funds', { ...payout, amount: 100_000_000 }, 422, 'insufficient_funds', 'amount'],
  ])('throws %s at once as PaymentApiError, without retrying', async (_name, input, status, code, param) => {
    const { client, slept, proxy } = await through([]);
    const error = await client.withdraw(input).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentApiError);
    expect(error).toMatchObject({ status, code, param, type: 'invalid_request_error', requestId: expect.stringMatching(/^req_/) });
    expect(error.message).toMatch(/amount/);
    expect(slept).toEqual([]);
    expect(proxy.seen).toHaveLength(1);
  });

  it('a wrong key is a final 401', async () => {
    const client = new PaymentsClient({ secretKey: 'sk_test_' + 'z'.repeat(40), baseUrl: api.url });
    await expect(client.getBalance()).rejects.toMatchObject({ status: 401, code: 'unauthorized', type: 'authentication_error' });
  });

  it('twenty withdrawals under random faults: twenty payouts, the ledger exact', async () => {
    const kinds: Fault[] = [
      'drop-after-processing',
      'reset-before-processing',
      'timeout-after-processing',
      'slow-answer',
      'http-503',
      'in-progress-409',
      'rate-limited-429',
    ];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    // Each withdrawal meets 0 to 3 faults of random kinds before an attempt gets through.
    const faults = Array.from({ length: 20 }, () => [
      ...Array.from({ length: Math.floor(random() * 4) }, () => kinds[Math.floor(random() * kinds.length)]!),
      'pass' as const,
    ]).flat();
    const before = await ledger();
    const { client, proxy } = await through(faults);
    const results = [];
    for (let i = 0; i < 20; i++) results.push(await client.withdraw({ ...payout, amount: 10_000 + i }));
    expect(new Set(results.map((r) => r.data.id)).size).toBe(20);
    expect(proxy.seen).toHaveLength(faults.length);
    const after = await ledger();
    expect(after.payouts).toBe(before.payouts + 20);
    expect(after.available).toBe(before.available - results.reduce((sum, r) => sum + r.data.amount, 0));
    expect(after.available).toBe(after.ledger);
  });

  it('waits 1 s for real by default before a retry', async () => {
    const proxy = await startFaultProxy(api.url, ['http-503']);
    proxies.push(proxy);
    const client = new PaymentsClient({ secretKey: api.merchant.secretKey, baseUrl: proxy.url });
    const started = performance.now();
    await client.getBalance();
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });
});

describe('PaymentsClient in a browser', () => {
  it('refuses to run where window and document exist, unless told it is a test', () => {
    const g = globalThis as { window?: unknown; document?: unknown };
    g.window = {};
    g.document = {};
    try {
      expect(() => new PaymentsClient({ secretKey: 'sk_test_x', baseUrl: 'http://localhost' })).toThrow(/refuses to run in a browser/);
      expect(
        () => new PaymentsClient({ secretKey: 'sk_test_x', baseUrl: 'http://localhost', dangerouslyAllowBrowser: true }),
      ).not.toThrow();
    } finally {
      delete g.window;
      delete g.document;
    }
  });
});
