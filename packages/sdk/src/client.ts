import { PaymentApiError, PaymentConnectionError, type PaymentError } from './errors.ts';
import {
  ActionMethods,
  API_PATH,
  IDEMPOTENCY_HEADER,
  MUTATING_ACTIONS,
  REPLAYED_HEADER,
  REQUEST_ID_HEADER,
  type ActionName,
  type Actions,
} from './generated.ts';

export interface PaymentsClientOptions {
  /** The merchant's secret key (`sk_test_…`). Keep it on a server. */
  secretKey: string;
  /** Where the API is served, e.g. `https://payments.example.com`; `/v1/index.php` is appended. */
  baseUrl: string;
  /** Time limit of each attempt, body included (not of the whole call with its retries). Default 30 s. */
  timeoutMs?: number;
  /** Retries after a network error, a timeout, a 5xx, a 409 in progress or a 429. Default 3 (after 1 s, 2 s, 4 s). */
  maxRetries?: number;
  /** The longest wait before a retry, even when `Retry-After` asks for more. Default 60 s. */
  maxRetryDelayMs?: number;
  /** A fetch of your own (a proxy agent, a test double). Default: the global fetch. */
  fetch?: typeof fetch;
  /** A secret key must never reach a browser: the client refuses to run in one unless this is set (tests only). */
  dangerouslyAllowBrowser?: boolean;
  /** Called before each retry; never given the key. */
  onRetry?: (info: RetryInfo) => void;
  /** How to wait between attempts (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
}

export interface RetryInfo {
  action: ActionName;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface RequestOptions {
  /** For state-changing actions: the key that makes retries safe. A random UUID when none is given; kept across retries. */
  idempotencyKey?: string;
  /** Extra headers for this call (e.g. `x-forwarded-for` from a proxy you run). */
  headers?: Record<string, string>;
  /** Cancels the whole call, retries included. */
  signal?: AbortSignal;
}

export interface Result<T = unknown> {
  data: T;
  /** The API answered from its idempotency store: an earlier request with this key had already done it. */
  replayed: boolean;
  requestId?: string;
  /** The key sent with a state-changing action. */
  idempotencyKey?: string;
}

type Attempt = { ok: true; result: Result } | { ok: false; error: PaymentError; retryAfterMs?: number; reason: string };

/** The spec's back-off: 1 s, 2 s, 4 s, then doubling. */
const backoffMs = (retry: number) => 1000 * 2 ** retry;

/**
 * A client of the payment API: one typed method per action (`withdraw`,
 * `getBalance`, …), the secret key as a Bearer token, an idempotency key on every
 * state-changing call (kept across retries), retries after failures that may be
 * transient, and `PaymentApiError` for final refusals.
 */
export class PaymentsClient extends ActionMethods<RequestOptions, Result> {
  readonly #key: string;
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryDelayMs: number;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onRetry?: (info: RetryInfo) => void;

  constructor(options: PaymentsClientOptions) {
    super();
    if (isBrowser() && !options.dangerouslyAllowBrowser) {
      throw new Error('PaymentsClient holds a secret key and refuses to run in a browser. Call the API from your server.');
    }
    if (!options.secretKey) throw new Error('PaymentsClient needs a secretKey.');
    if (!/^https?:\/\//.test(options.baseUrl ?? '')) throw new Error('PaymentsClient needs an http(s) baseUrl.');
    this.#key = options.secretKey;
    this.#url = options.baseUrl.replace(/\/+$/, '') + API_PATH;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#onRetry = options.onRetry;
  }

  /** Calls any action by name; the typed methods go through here. */
  async request<N extends ActionName>(
    action: N,
    params: Actions[N]['params'],
    options: RequestOptions = {},
  ): Promise<Result<Actions[N]['response']>> {
    const idempotencyKey = MUTATING_ACTIONS.has(action) ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const body = JSON.stringify({ ...params, action });
    for (let retry = 0; ; retry++) {
      const outcome = await this.#attempt(body, idempotencyKey, options);
      if (outcome.ok) return { ...outcome.result, idempotencyKey } as Result<Actions[N]['response']>;
      outcome.error.idempotencyKey = idempotencyKey;
      if (retry >= this.#maxRetries || options.signal?.aborted) throw outcome.error;
      const delayMs = Math.min(Math.max(backoffMs(retry), outcome.retryAfterMs ?? 0), this.#maxRetryDelayMs);
      this.#onRetry?.({ action, attempt: retry + 1, delayMs, reason: outcome.reason });
      await this.#sleep(delayMs);
      options.signal?.throwIfAborted();
    }
  }

  async #attempt(body: string, idempotencyKey: string | undefined, options: RequestOptions): Promise<Attempt> {
    const headers: Record<string, string> = {
      ...options.headers,
      authorization: `Bearer ${this.#key}`,
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await this.#fetch(this.#url, { method: 'POST', headers, body, signal, redirect: 'error', cache: 'no-store' });
      text = await res.text();
    } catch (cause) {
      options.signal?.throwIfAborted();
      const timedOut = timeout.aborted;
      const reason = timedOut ? `no answer within ${this.#timeoutMs} ms` : 'network error';
      return {
        ok: false,
        reason,
        error: new PaymentConnectionError(`The payment API did not answer (${reason}); the outcome is unknown.`, timedOut, { cause }),
      };
    }
    const requestId = res.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const json = parseJson(text);
    if (res.ok) {
      if (json === undefined)
        return { ok: false, reason: `HTTP ${res.status} without JSON`, error: invalidResponse(res.status, requestId) };
      return { ok: true, result: { data: json, replayed: res.headers.get(REPLAYED_HEADER) === 'true', requestId } };
    }
    const error = apiError(res.status, json, requestId);
    const retryable = res.status >= 500 || res.status === 429 || (res.status === 409 && error.code === 'idempotency_request_in_progress');
    if (!retryable) throw Object.assign(error, { idempotencyKey });
    return {
      ok: false,
      reason: `HTTP ${res.status}${error.code === 'invalid_response' ? '' : ` ${error.code}`}`,
      error,
      retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
    };
  }
}

function apiError(status: number, json: unknown, requestId: string | undefined): PaymentApiError {
  const e = (json as { error?: Record<string, unknown> } | undefined)?.error;
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string') return invalidResponse(status, requestId);
  return new PaymentApiError({
    status,
    code: e.code,
    type: typeof e.type === 'string' ? e.type : 'api_error',
    message: e.message,
    param: typeof e.param === 'string' ? e.param : undefined,
    requestId: typeof e.request_id === 'string' ? e.request_id : requestId,
  });
}

const invalidResponse = (status: number, requestId?: string) =>
  new PaymentApiError({
    status,
    code: 'invalid_response',
    type: 'api_error',
    message: `The payment API answered HTTP ${status} with a body that is not its JSON.`,
    requestId,
  });

/** Retry-After in seconds (or an HTTP date), as milliseconds. */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}
