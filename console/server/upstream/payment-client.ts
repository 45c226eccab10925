import 'server-only';
import { ACTIONS, REQUEST_ORIGIN_HEADER, type ActionResponse } from '../../../lib/contract';
import { PaymentApiError, PaymentsClient, type ActionName, type Actions } from '@/packages/sdk/src';
import { invalidResponse, outcomeUnknown, UpstreamError } from './upstream-error';

/**
 * The spec's back-off, which the SDK follows for a read: 1 s, 2 s, 4 s. A write (a call with the
 * browser's idempotency key) gets one attempt here: the browser retries it (console/browser/queries/retry-policy.ts),
 * the one place a write's retries are decided, so that its attempts are counted and shown once.
 */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/** A console request never waits longer than this between two attempts, whatever Retry-After says. */
const MAX_RETRY_DELAY_MS = 4000;

export interface PaymentClientOptions {
  /** Origin (and optional path prefix) of the payment API; `/v1/index.php` is appended. */
  baseUrl: string;
  /** Timeout of each attempt, the body included. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each retry; never given the key. */
  onRetry?: (info: { action: string; attempt: number; reason: string }) => void;
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

/**
 * The console's one way to the payment API, built on the SDK (packages/sdk): the
 * console is the SDK's first user. The SDK sends the Bearer key and the
 * idempotency key and retries; this adapter adds what only the console needs:
 * answers checked with the contract's zod schemas (so nothing unasked-for reaches
 * a browser), and every failure as an UpstreamError in the one error shape.
 */
export function createPaymentClient(options: PaymentClientOptions) {
  const sdkFor = (secretKey: string, write: boolean) =>
    new PaymentsClient({
      secretKey,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 8000,
      maxRetries: write ? 0 : DEFAULT_RETRY_DELAYS_MS.length,
      maxRetryDelayMs: MAX_RETRY_DELAY_MS,
      fetch: options.fetch,
      sleep: options.sleep,
      onRetry: options.onRetry && ((info) => options.onRetry!({ action: info.action, attempt: info.attempt, reason: info.reason })),
    });

  return {
    /** One action; its answer is checked with the contract's own response schema for it (ACTIONS[action].response). */
    async call<N extends ActionName>(
      secretKey: string,
      action: N,
      params: Actions[N]['params'],
      opts: CallOptions = {},
    ): Promise<CallResult<ActionResponse<N>>> {
      let result;
      try {
        result = await sdkFor(secretKey, opts.idempotencyKey !== undefined).request(action, params, {
          idempotencyKey: opts.idempotencyKey,
          headers: {
            ...(opts.clientAddress === undefined ? {} : { 'x-forwarded-for': opts.clientAddress }),
            // Every read the console makes draws one of its pages: the request log files it behind a filter.
            ...(ACTIONS[action].mutates ? {} : { [REQUEST_ORIGIN_HEADER]: 'console' }),
          },
        });
      } catch (error) {
        throw toUpstreamError(error);
      }
      const parsed = ACTIONS[action].response.safeParse(result.data);
      if (!parsed.success) throw invalidResponse(200);
      return { data: parsed.data as ActionResponse<N>, replayed: result.replayed };
    },
  };
}

export type PaymentClient = ReturnType<typeof createPaymentClient>;

/** The SDK's errors in the console's terms: the API's own refusals pass through; no usable answer is an unknown outcome. */
function toUpstreamError(error: unknown): UpstreamError {
  if (error instanceof PaymentApiError && error.code !== 'invalid_response') {
    const { status, type, code, message, param, requestId } = error;
    return new UpstreamError(status, {
      error: { type, code, message, ...(param ? { param } : {}), ...(requestId ? { request_id: requestId } : {}) },
    });
  }
  if (error instanceof PaymentApiError) return error.status >= 500 ? outcomeUnknown(`HTTP ${error.status}`) : invalidResponse(error.status);
  return outcomeUnknown(error instanceof Error && 'timedOut' in error && error.timedOut ? 'no answer in time' : 'network error');
}
