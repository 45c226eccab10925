import 'server-only';
import { ApiError } from '../contract';
import { failuresNow, recordFailure } from '../db/auth-failures';
import { env } from '../config/env';
import { getRuntime } from '../server/runtime';

/** Console sign-ins are counted apart from API keys, per browser address, in the same table. */
const bucket = (address: string) => `console:${address}`;

/** 429 before the key is even read when this browser address failed too often this minute. */
export async function assertSignInAllowed(address: string): Promise<void> {
  const { db } = await getRuntime();
  const { failures, retryAfter } = await failuresNow(db, bucket(address));
  if (failures >= env().AUTH_FAILURES_PER_MINUTE) {
    throw new ApiError('rate_limited', 'Too many failed sign-in attempts. Wait a minute and try again.', undefined, {
      'Retry-After': String(retryAfter),
    });
  }
}

/** Counts a failed sign-in of this browser address; returns the error to throw. */
export async function signInFailed(address: string, error: ApiError): Promise<ApiError> {
  const { db } = await getRuntime();
  await recordFailure(db, [bucket(address)]);
  return error;
}
