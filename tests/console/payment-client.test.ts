import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/types';
import { createPaymentClient, DEFAULT_RETRY_DELAYS_MS } from '@/console/server/upstream/payment-client';
import { merchantApi } from '@/console/server/upstream/merchant-api';
import { UpstreamError } from '@/console/server/upstream/upstream-error';
import { pgliteBackend } from '../../testing/databases';
import { startTestApi, type TestApi } from '../helpers/api-server';
import { startFaultProxy, type Fault } from './fault-proxy';

let db: Db;
let api: TestApi;
const payout = { amount: 50_000, bank_code: 'BCA' as const, account_number: '1234567890' };

beforeAll(async () => {
  db = await pgliteBackend.open();
  api = await startTestApi(db);
});
afterAll(async () => {
  await api.close();
  await db.close();
});

/** A client through a proxy that misbehaves as told; sleeps are recorded, not waited. */
async function throughProxy(faults: Fault[], opts: { fallback?: Fault; timeoutMs?: number } = {}) {
  const proxy = await startFaultProxy(api.url, faults, { fallback: opts.fallback, hangMs: 1_000 });
  const slept: number[] = [];
  const client = createPaymentClient({ baseUrl: proxy.url, timeoutMs: opts.timeoutMs ?? 5_000, sleep: async (ms) => void slept.push(ms) });
  return { proxy, slept, merchant: merchantApi(client, api.merchant.secretKey) };
}

describe('payment client against the real API', () => {
  it('reads the balance, zod-checked', async () => {
    const client = createPaymentClient({ baseUrl: api.url });
    const { data, replayed } = await merchantApi(client, api.merchant.secretKey).getBalance();
    expect(data).toMatchObject({ object: 'balance', currency: 'IDR', merchant: { id: api.merchant.id } });
    expect(Number.isInteger(data.available)).toBe(true);
    expect(replayed).toBe(false);
  });

  it('a wrong key is a final 401 in the one error shape', async () => {
    const { proxy, slept } = await throughProxy([]);
    const client = createPaymentClient({ baseUrl: proxy.url, sleep: async (ms) => void slept.push(ms) });
    const error = await merchantApi(client, 'sk_test_' + 'z'.repeat(40))
      .getBalance()
      .catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(401);
    expect(error.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthorized' });
    expect(proxy.seen).toHaveLength(1);
    await proxy.close();
  });

  it('sends the Bearer key and the idempotency header; a repeat is marked replayed', async () => {
    const { proxy, merchant } = await throughProxy([]);
    const first = await merchant.withdraw(payout, 'key-replay-1');
    const second = await merchant.withdraw(payout, 'key-replay-1');
    expect(second.data.id).toBe(first.data.id);
    expect([first.replayed, second.replayed]).toEqual([false, true]);
    expect(proxy.seen[0]).toMatchObject({ authorization: `Bearer ${api.merchant.secretKey}`, idempotencyKey: 'key-replay-1' });
    await proxy.close();
  });

  it.each<[string, Fault[], number, string]>([
    ['a dropped response after the API processed the payout', ['drop-after-processing'], 503, 'upstream_unavailable'],
    ['a timeout after the API processed the payout', ['timeout-after-processing'], 503, 'upstream_unavailable'],
    ['a 503 from a gateway', ['http-503'], 503, 'upstream_unavailable'],
    ['a 409 "in progress"', ['in-progress-409'], 409, 'idempotency_request_in_progress'],
  ])('a write makes one attempt: after %s the outcome is unknown, for the browser to retry', async (_name, faults, status, code) => {
    const { proxy, slept, merchant } = await throughProxy(faults, { timeoutMs: 500 });
    const error = await merchant.withdraw(payout, `key-once-${faults.join('-')}`).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect([error.status, error.body.error.code]).toEqual([status, code]);
    expect(slept).toEqual([]);
    expect(proxy.seen).toHaveLength(1);
    await proxy.close();
  });

  it.each<[string, Fault[], number]>([
    ['a dropped response', ['drop-after-processing'], 1],
    ['a timeout', ['timeout-after-processing'], 1],
    ['two dropped responses', ['drop-after-processing', 'drop-after-processing'], 2],
    ['a 503 from a gateway', ['http-503'], 1],
  ])('a read is retried after %s (1 s, 2 s, 4 s)', async (_name, faults, retries) => {
    const { proxy, slept, merchant } = await throughProxy(faults, { timeoutMs: 500 });
    const { data } = await merchant.getBalance();
    expect(data.object).toBe('balance');
    expect(slept).toEqual(DEFAULT_RETRY_DELAYS_MS.slice(0, retries));
    expect(proxy.seen).toHaveLength(retries + 1);
    await proxy.close();
  });

  it('a read gives up after 1 s, 2 s and 4 s: 503 upstream_unavailable, no key in it', async () => {
    const { proxy, slept, merchant } = await throughProxy([], { fallback: 'drop-after-processing' });
    const error = await merchant.getBalance().catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(503);
    expect(error.body.error.code).toBe('upstream_unavailable');
    expect(error.body.error.message).toMatch(/outcome is unknown/);
    expect(JSON.stringify(error.body)).not.toContain(api.merchant.secretKey);
    expect(slept).toEqual([1000, 2000, 4000]);
    expect(proxy.seen).toHaveLength(4);
    await proxy.close();
  });

  it.each([
    ['a validation error', { ...payout, amount: 5 }, 400, 'invalid_request', 'amount'],
    ['insufficient funds', { ...payout, amount: 100_000_000 }, 422, 'insufficient_funds', 'amount'],
  ])('does not retry %s', async (_name, input, status, code, param) => {
    const { proxy, slept, merchant } = await throughProxy([]);
    const error = await merchant.withdraw(input, `key-final-${code}`).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(status);
    expect(error.body.error).toMatchObject({ code, param });
    expect(slept).toEqual([]);
    expect(proxy.seen).toHaveLength(1);
    await proxy.close();
  });

  it('refuses a response that does not match its schema', async () => {
    const { proxy, merchant } = await throughProxy(['garbage-200']);
    const error = await merchant.getBalance().catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(502);
    expect(error.body.error.code).toBe('upstream_invalid_response');
    await proxy.close();
  });
});
