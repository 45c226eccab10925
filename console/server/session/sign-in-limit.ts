import 'server-only';
import { ApiError } from '../../../lib/contract';
import { env } from '../../../lib/config/env';
import { consoleContext } from '../data/data-access';

/** Console sign-ins are counted apart from API keys, per browser address, in the same table. */
const bucket = (address: string) => `console:${address}`;

/** 429 before the key is even read when this browser address failed too often this minute. */
export async function assertSignInAllowed(address: string): Promise<void> {
  const { failures, retryAfter } = await consoleContext().sessions.failuresNow(bucket(address));
  if (failures >= env().AUTH_FAILURES_PER_MINUTE) {
    throw new ApiError('rate_limited', 'Too many failed sign-in attempts. Wait a minute and try again.', undefined, {
      'Retry-After': String(retryAfter),
    });
  }
}

/** Counts a failed sign-in of this browser address; returns the error to throw. */
export async function signInFailed(address: string, error: ApiError): Promise<ApiError> {
  await consoleContext().sessions.recordFailure(bucket(address));
  return error;
}
