import 'server-only';
import type { z } from 'zod';
import { API_PATH, errorBodySchema, IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../contract';
import { invalidResponse, outcomeUnknown, UpstreamError } from './upstream-error';

/** The spec's recommended back-off: 1 s, 2 s, 4 s, each resending the same key. */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

export interface PaymentClientOptions {
  /** Origin (and optional path prefix) of the payment API; `/v1/index.php` is appended. */
  baseUrl: string;
  /** Timeout of each attempt, the body included. */
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each retry; never given the key. */
  onRetry?: (info: { action: string; attempt: number; reason: string }) => void;
}

export interface Command {
  action: string;
  [field: string]: unknown;
}

export interface CallResult<T> {
  data: T;
  /** The API answered from its idempotency store: the original request had already been carried out. */
  replayed: boolean;
}

export interface CallOptions {
  idempotencyKey?: string;
  /** The browser's address, sent as X-Forwarded-For (believed in process, and by an API that trusts the console as a proxy). */
  clientAddress?: string;
}

type Attempt<T> = { done: true; result: CallResult<T> } | { done: false; reason: string; error: UpstreamError };

/**
 * The console's one way to the payment API: Bearer key, idempotency header,
 * retries with the same key after a network error, a timeout, a 5xx or a 409
 * "in progress", zod-checked responses, and errors in the one error shape.
 */
export function createPaymentClient(options: PaymentClientOptions) {
  const url = options.baseUrl.replace(/\/+$/, '') + API_PATH;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? 8000;

  async function attempt<T>(secretKey: string, command: Command, schema: z.ZodType<T>, opts: CallOptions): Promise<Attempt<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', accept: 'application/json' };
    if (opts.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = opts.idempotencyKey;
    // The browser's address, for the API's failed-authentication limit (the console is its proxy).
    if (opts.clientAddress !== undefined) headers['x-forwarded-for'] = opts.clientAddress;
    let status: number;
    let text: string;
    let replayed: boolean;
    try {
      const res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(command), signal: AbortSignal.timeout(timeoutMs), redirect: 'error', cache: 'no-store' });
      status = res.status;
      replayed = res.headers.get(REPLAYED_HEADER) === 'true';
      text = await res.text();
    } catch (error) {
      const reason = (error as Error)?.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'network error';
      return { done: false, reason, error: outcomeUnknown(reason) };
    }
    const json = parseJson(text);
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw invalidResponse(status);
      return { done: true, result: { data: parsed.data, replayed } };
    }
    const body = errorBodySchema.safeParse(json);
    const error = body.success ? new UpstreamError(status, body.data) : status >= 500 ? outcomeUnknown(`HTTP ${status}`) : invalidResponse(status);
    if (status >= 500 || (status === 409 && error.code === 'idempotency_request_in_progress')) {
      return { done: false, reason: `HTTP ${status}`, error };
    }
    throw error;
  }

  return {
    async call<T>(secretKey: string, command: Command, schema: z.ZodType<T>, opts: CallOptions = {}): Promise<CallResult<T>> {
      for (let i = 0; ; i++) {
        const outcome = await attempt(secretKey, command, schema, opts);
        if (outcome.done) return outcome.result;
        const delay = delays[i];
        if (delay === undefined) throw outcome.error;
        options.onRetry?.({ action: command.action, attempt: i + 1, reason: outcome.reason });
        await sleep(delay);
      }
    },
  };
}

export type PaymentClient = ReturnType<typeof createPaymentClient>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
