import { z } from 'zod';
import { ApiError, describeFirstIssue, ERROR_CODES } from '../../../lib/contract';
import { isDatabaseUnavailable } from '../../../lib/db/types';
import { UpstreamError } from '../upstream/upstream-error';

/** The console's routes answer in the API's one error shape, with codes from the one table (lib/contract/errors.ts). */
export const notSignedIn = () => new ApiError('unauthorized', 'Sign in to the console first.');

/** The first zod issue, naming its field, as the API does. */
export function validationError(error: z.ZodError): ApiError {
  const { message, param } = describeFirstIssue(error);
  return new ApiError('invalid_request', message, param);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });

/**
 * The one place a console route's failure becomes a response. Anything
 * unexpected is logged by the caller and answered generically.
 */
export function toErrorResponse(error: unknown): { response: Response; unexpected: boolean } {
  if (error instanceof ApiError) return { response: jsonResponse(error.status, error.toBody(), error.headers), unexpected: false };
  if (error instanceof z.ZodError) return toErrorResponse(validationError(error));
  if (error instanceof UpstreamError) {
    // The key in the session is no longer accepted (revoked or rolled): the session is over.
    if (error.status === 401) return toErrorResponse(new ApiError('unauthorized', 'Your secret key is no longer accepted. Sign in again.'));
    return { response: jsonResponse(error.status, error.body), unexpected: false };
  }
  // The console's own store (its sessions) unreachable, as during a database failover: retry, not a 500.
  if (isDatabaseUnavailable(error)) {
    return toErrorResponse(
      new ApiError('service_unavailable', 'The console cannot reach its database right now. Try again in a moment.', undefined, {
        'Retry-After': '1',
      }),
    );
  }
  const internal = new ApiError('internal_error', 'An internal error occurred.');
  return { response: jsonResponse(ERROR_CODES.internal_error.status, internal.toBody()), unexpected: true };
}
