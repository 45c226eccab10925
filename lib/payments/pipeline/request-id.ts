import { randomBase62 } from './random-id';

/**
 * Request ids: unique, not secret. A random prefix per process and a counter cost
 * nothing per request (a CSPRNG read per request showed in the bench of a cheap read).
 * The API's answers and the console's routes take theirs from here.
 */
const REQUEST_ID_PREFIX = `req_${randomBase62(12)}`;
let requestCounter = 0;
export const nextRequestId = () => `${REQUEST_ID_PREFIX}${(requestCounter++).toString(36).padStart(8, '0')}`;
