import type { ErrorBody } from '../../../lib/contract';
import { ATTEMPT_TIMEOUT_MS } from './retry-policy';

/**
 * A failed console request. `outcomeUnknown` means the browser cannot know
 * whether the server acted: the response was lost, or the server could not
 * reach the payment API. Such requests are retried with the same idempotency key.
 */
export class ConsoleRequestError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ConsoleRequestError';
  }

  get outcomeUnknown(): boolean {
    return this.status === null || this.status >= 500 || this.code === 'idempotency_request_in_progress';
  }
}

/**
 * Set while this page signs out: a request that the sign-out itself ends is not "your session
 * ended". It lasts until the page is left; a page brought back from the back-forward cache
 * starts without it, so a later 401 there still goes to the sign-in page.
 */
let signingOut = false;

/** Called by the sign-out buttons before they end the session (a balance poll in flight then gets 401). */
export function markSigningOut() {
  signingOut = true;
  window.addEventListener('pageshow', () => void (signingOut = false), { once: true });
}

/** Whether a 401 answer sends the page to the sign-in page (not while this page signs out, nor for sign-in itself). */
export const endsSession = (status: number, path: string) => status === 401 && path !== '/api/session' && !signingOut;

/** Same-origin JSON to the console's own routes; the cookie goes along, no key ever does. */
export async function consoleFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers:
        init.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      cache: 'no-store',
      // One attempt's bound (retry-policy.ts): past it the outcome is unknown, and a write is retried under its key.
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
  } catch {
    throw new ConsoleRequestError(null, 'network_error', 'The response was lost on the way.');
  }
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => undefined)) as (T & Partial<ErrorBody>) | undefined;
  if (res.ok && body !== undefined) return body;
  // An answer whose body was cut off (or timed out) says nothing of the outcome.
  if (res.ok) throw new ConsoleRequestError(null, 'network_error', 'The response was lost on the way.');
  if (endsSession(res.status, path)) {
    // The session ended (signed out elsewhere, expired, its key revoked or rolled): back to the sign-in page, which says so.
    // A document load replacing this page (sign-out-buttons.tsx says why), not a client-side push.
    window.location.replace('/login?ended=1');
  }
  const error = body?.error;
  throw new ConsoleRequestError(
    res.status,
    error?.code ?? 'http_error',
    error?.message ?? `The console answered HTTP ${res.status}.`,
    error?.param,
  );
}
