import { afterAll, beforeAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@/lib/payments/webhooks/secret-box';
import type { Db } from '@/lib/db/types';
import type { Backend } from '../../testing/databases';
import { startInProcessApi } from '../../testing/in-process-api';
import type { Logger } from '@/lib/log';
import type { CreatedMerchant } from '@/lib/payments/merchants/merchants';
import type { PaymentApiDeps } from '@/lib/payments/pipeline/payment-api';

export interface ApiCallOptions {
  key?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** A raw body instead of JSON.stringify(body). */
  raw?: string;
  /** Aborts the call (a per-attempt timeout). */
  signal?: AbortSignal;
}

export interface ApiResult<T = JsonAnswer> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface TestApi {
  url: string;
  db: Db;
  merchant: CreatedMerchant;
  call<T = JsonAnswer>(body: unknown, opts?: ApiCallOptions): Promise<ApiResult<T>>;
  /** Writes the request log's buffer now (in-process mounts only). */
  flushRequestLog?(): Promise<void>;
  close(): Promise<void>;
}

import { API_PATH } from '../../testing/api-path';
import { assertMatchesOpenApi } from './openapi-check';
import type { JsonAnswer } from './json-answer';

/** One sealing key for every test core of this process: a test's delivery worker opens what its API sealed. */
export const testSecretBox = createSecretBox([randomBytes(32)]);

export { API_PATH };

/** POSTs one command over real HTTP. */
export async function callApi<T = JsonAnswer>(
  baseUrl: string,
  defaultKey: string | undefined,
  body: unknown,
  opts: ApiCallOptions = {},
): Promise<ApiResult<T>> {
  const key = opts.key === undefined ? defaultKey : opts.key;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  if (opts.idempotencyKey !== undefined) headers['x-service-idempotency'] = opts.idempotencyKey;
  const sent = opts.raw ?? JSON.stringify(body);
  const res = await fetch(baseUrl + API_PATH, { method: 'POST', headers, body: sent, signal: opts.signal });
  const text = await res.text();
  // Every answer the integration suite receives must match the OpenAPI document.
  assertMatchesOpenApi(sent, res.status, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed as T };
}

/**
 * The payment core on a real HTTP server (node:http, port 0) over `db`, with a
 * merchant ready to call it.
 */
export async function startTestApi(
  db: Db,
  opts: { settings?: Partial<PaymentApiDeps['settings']>; openingBalance?: number; log?: Logger; onGroup?: PaymentApiDeps['onGroup'] } = {},
): Promise<TestApi> {
  // The core as the API's composition root assembles it, on the production server; the database stays the caller's.
  const api = await startInProcessApi(db, { ...opts, secretBox: testSecretBox });
  return {
    url: api.url,
    db,
    merchant: api.merchant,
    call: (body, callOpts) => callApi(api.url, api.merchant.secretKey, body, callOpts),
    flushRequestLog: api.flushRequestLog,
    close: api.close,
  };
}

/** A create_payout_batch command of `count` payouts of `amount` to one account, each with its own reference. */
export const payoutBatch = (count: number, amount = 10_000) => ({
  action: 'create_payout_batch',
  payouts: Array.from({ length: count }, (_, i) => ({ amount, bank_code: 'BCA', account_number: '1234567890', reference: `batch-${i}` })),
});

export const withdrawal = (amount = 50_000, extra: Record<string, unknown> = {}) => ({
  action: 'withdraw',
  amount,
  bank_code: 'BCA',
  account_number: '1234567890',
  ...extra,
});

type StartOptions = Parameters<typeof startTestApi>[1];

/** A backend (node:http in this process on a fresh database of it) or any ApiTarget (tests/helpers/api-targets). */
type Where = Backend | { name: string; start(opts?: StartOptions): Promise<TestApi> };
const startOn = async (where: Where, opts: StartOptions) => ('start' in where ? where.start(opts) : startTestApi(await where.open(), opts));

async function stop(api: TestApi) {
  await api.close();
  await api.db.close();
}

/** Runs `fn` against a fresh test API on a new database of `backend`, then closes both. */
export async function withTestApi<T>(backend: Where, opts: StartOptions, fn: (api: TestApi) => Promise<T>): Promise<T> {
  const api = await startOn(backend, opts);
  try {
    return await fn(api);
  } finally {
    await stop(api);
  }
}

/**
 * The merchant's request log once it holds `expected` rows: flushed at once in process; a server
 * process writes its buffer within 200 ms, so this waits for it (at most 10 s) and then reads.
 */
export async function loggedRequests(api: TestApi, expected: number): Promise<{ id: string; status: number; action: string }[]> {
  const read = () =>
    api.db.query<{ id: string; status: number; action: string }>('SELECT id, status, action FROM request_log WHERE merchant_id = $1', [
      api.merchant.id,
    ]);
  if (api.flushRequestLog) await api.flushRequestLog();
  for (const deadline = Date.now() + 10_000; ;) {
    const rows = await read();
    if (rows.length >= expected || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One test API shared by the tests of a describe block: started before them, closed after. */
export function useTestApi(backend: Where, opts?: StartOptions): () => TestApi {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startOn(backend, opts);
  });
  afterAll(async () => {
    if (api) await stop(api);
  });
  return () => api!;
}
