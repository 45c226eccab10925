import type { Queryable } from '../db/types';
import type { AuthFailureLimiter } from './auth-failure-limiter';
import { ApiError } from '../contract';
import { merchantForKey, type Merchant } from './merchants';
import { isWellFormedSecretKey } from './secret-keys';

const unauthorized = () =>
  new ApiError('unauthorized', 'A valid secret key is required: Authorization: Bearer sk_test_...', undefined, {
    'WWW-Authenticate': 'Bearer realm="payments"',
  });

/**
 * Resolves `Authorization: Bearer <secret key>` to its merchant. Missing,
 * malformed, unknown and revoked keys all get the same 401, so the answer tells
 * nothing about which merchants exist. Repeated failures from one address get 429.
 */
export async function authenticate(
  db: Queryable,
  header: string | null,
  clientAddress: string,
  limiter: AuthFailureLimiter,
): Promise<Merchant> {
  const match = /^bearer +(\S+) *$/i.exec(header ?? '');
  const key = match?.[1];
  const merchant = key && isWellFormedSecretKey(key) ? await merchantForKey(db, key) : undefined;
  if (merchant) return merchant;

  const wait = limiter.blockedFor(clientAddress);
  if (wait > 0) {
    throw new ApiError('rate_limited', 'Too many failed authentication attempts. Retry later.', undefined, {
      'Retry-After': String(wait),
    });
  }
  limiter.recordFailure(clientAddress);
  throw unauthorized();
}
