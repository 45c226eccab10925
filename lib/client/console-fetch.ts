import type { ErrorBody } from '../contract';

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

/** Set when this page signs out: a request that the sign-out itself ends is not "your session ended". */
let signingOut = false;

/** Called by the sign-out buttons before they end the session (a balance poll in flight then gets 401). */
export function markSigningOut() {
  signingOut = true;
}

/** Same-origin JSON to the console's own routes; the cookie goes along, no key ever does. */
export async function consoleFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ConsoleRequestError(null, 'network_error', 'The response was lost on the way.');
  }
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => undefined)) as (T & Partial<ErrorBody>) | undefined;
  if (res.ok && body !== undefined) return body;
  if (res.status === 401 && path !== '/api/session' && !signingOut) {
    // The session ended (signed out elsewhere, expired, its key revoked or rolled): back to the sign-in page, which says so.
    window.location.assign('/login?ended=1');
  }
  const error = body?.error;
  throw new ConsoleRequestError(res.status, error?.code ?? 'http_error', error?.message ?? `The console answered HTTP ${res.status}.`, error?.param);
}
