/**
 * The console's one retry layer for what a page sends. A write is retried here, in the browser,
 * and nowhere else: the console route makes one attempt at the payment API per attempt of the
 * browser (console/server/upstream/payment-client.ts), so one click is at most MAX_ATTEMPTS upstream
 * attempts, all under the intent's one idempotency key, and the page can say which attempt it is
 * on. Bound: MAX_ATTEMPTS attempts, each ended by the route's upstream timeout
 * (PAYMENT_API_TIMEOUT_MS, 8 s) or by ATTEMPT_TIMEOUT_MS here, with 1 s, 2 s and 4 s between them.
 */
export const MAX_ATTEMPTS = 4;
const RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/** The browser's own bound on one attempt: above the route's upstream timeout, so the route's answer normally comes first. */
export const ATTEMPT_TIMEOUT_MS = 30_000;

/** react-query's `retry` of a write: only an unknown outcome, and only while attempts are left. */
export const retryWrite = (failureCount: number, error: { outcomeUnknown: boolean }) =>
  error.outcomeUnknown && failureCount < MAX_ATTEMPTS - 1;

/** react-query's `retryDelay` of a write (failureCount counts from 0 before the first retry). */
export const writeRetryDelay = (failureCount: number): number => RETRY_DELAYS_MS[Math.min(failureCount, RETRY_DELAYS_MS.length - 1)]!;

/**
 * A read: the route's upstream call already retried the payment API (the server renders pages
 * with it too), so the browser asks again only when its own answer was lost on the way.
 */
export const retryRead = (failureCount: number, error: unknown) =>
  failureCount < MAX_ATTEMPTS - 1 && !(typeof error === 'object' && error !== null && 'status' in error && error.status !== null);

/** What a page shows while a write is being retried. */
export const stillTrying = (failureCount: number) => `Still trying, attempt ${Math.min(failureCount + 1, MAX_ATTEMPTS)} of ${MAX_ATTEMPTS}`;
