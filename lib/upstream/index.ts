import 'server-only';
import { env } from '../config/env';
import { createLogger } from '../log';
import { getRuntime } from '../server/runtime';
import { inProcessFetch } from './in-process-fetch';
import { createPaymentClient, type PaymentClient } from './payment-client';

/**
 * The payment API's address: PAYMENT_API_BASE_URL, or this very server. It comes
 * only from the server's settings, never from a request, so the browser cannot
 * point the console (and the merchant's key) anywhere else. Next sets PORT to
 * the port it listens on.
 */
export function upstreamBaseUrl(): string {
  const settings = env();
  return settings.PAYMENT_API_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? settings.PORT}`;
}

const GLOBAL_KEY = Symbol.for('merchant-payments.upstream');
type WithClient = typeof globalThis & { [GLOBAL_KEY]?: PaymentClient };

/**
 * The process's adapter, created on first use. With no PAYMENT_API_BASE_URL the
 * API is this app, and requests reach its core in process (see inProcessFetch).
 */
export function paymentClient(): PaymentClient {
  const g = globalThis as WithClient;
  if (!g[GLOBAL_KEY]) {
    const settings = env();
    const log = createLogger({ level: settings.LOG_LEVEL }).child({ component: 'upstream' });
    g[GLOBAL_KEY] = createPaymentClient({
      baseUrl: upstreamBaseUrl(),
      timeoutMs: settings.PAYMENT_API_TIMEOUT_MS,
      fetch: settings.PAYMENT_API_BASE_URL ? undefined : inProcessFetch(async () => (await getRuntime()).core),
      onRetry: (info) => log.warn(info, 'payment API call failed; retrying with the same idempotency key'),
    });
  }
  return g[GLOBAL_KEY];
}
