import { z } from 'zod';
import { describeFirstIssue } from '../payments/zod-issue';
import { UpstreamError, type ErrorBody } from '../upstream/upstream-error';

/** The console's own error codes; upstream errors pass through in the same shape. */
export const CONSOLE_ERRORS = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  unauthorized: { status: 401, type: 'authentication_error' },
  invalid_secret_key: { status: 401, type: 'authentication_error' },
  cross_origin_request: { status: 403, type: 'invalid_request_error' },
  not_found: { status: 404, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  internal_error: { status: 500, type: 'api_error' },
} as const;

export type ConsoleErrorCode = keyof typeof CONSOLE_ERRORS;

export class ConsoleError extends Error {
  constructor(
    readonly code: ConsoleErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }

  toBody(): ErrorBody {
    return { error: { type: CONSOLE_ERRORS[this.code].type, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) } };
  }
}

export const notSignedIn = () => new ConsoleError('unauthorized', 'Sign in to the console first.');

/** The first zod issue, naming its field, as the API does. */
export function validationError(error: z.ZodError): ConsoleError {
  const { message, param } = describeFirstIssue(error);
  return new ConsoleError('invalid_request', message, param);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });

/**
 * The one place a console route's failure becomes a response. Anything
 * unexpected is logged by the caller and answered generically.
 */
export function toErrorResponse(error: unknown): { response: Response; unexpected: boolean } {
  if (error instanceof ConsoleError) return { response: jsonResponse(CONSOLE_ERRORS[error.code].status, error.toBody()), unexpected: false };
  if (error instanceof z.ZodError) return toErrorResponse(validationError(error));
  if (error instanceof UpstreamError) {
    // The key in the session is no longer accepted (revoked or rolled): the session is over.
    if (error.status === 401) return toErrorResponse(new ConsoleError('unauthorized', 'Your secret key is no longer accepted. Sign in again.'));
    return { response: jsonResponse(error.status, error.body), unexpected: false };
  }
  return { response: toErrorResponse(new ConsoleError('internal_error', 'An internal error occurred.')).response, unexpected: true };
}
