import { createHash } from 'node:crypto';
import { API_KEY_PATTERN } from '../../contract';
import { SECRET_KEY_PATTERN } from '../../config/env';
import { randomBase62 } from './random-id';

export { SECRET_KEY_PATTERN };

/** A new test-mode secret key: `sk_test_` and 40 random base62 characters (238 bits). */
export const generateSecretKey = () => `sk_test_${randomBase62(40)}`;
/** A new restricted key: `rk_test_` and 40 random base62 characters. */
export const generateRestrictedKey = () => `rk_test_${randomBase62(40)}`;

/**
 * Keys are stored and looked up only by this hash. Looking up a uniform hash in a
 * unique index leaks nothing about the key through timing, unlike comparing keys.
 */
export const hashSecretKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** What may be shown of a key after creation: its prefix and last four characters. */
export const keyHint = (key: string) => `${key.slice(0, 8)}…${key.slice(-4)}`;

export const isWellFormedSecretKey = (key: string) => SECRET_KEY_PATTERN.test(key);
/** A secret or a restricted key. */
export const isWellFormedApiKey = (key: string) => API_KEY_PATTERN.test(key);
