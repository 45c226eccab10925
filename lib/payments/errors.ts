/**
 * The one error shape of the API: { "error": { type, code, message, param? } }.
 * Codes are stable; the table below is the only place that maps them to HTTP.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, type: 'invalid_request_error' },
  invalid_request: { status: 400, type: 'invalid_request_error' },
  unknown_action: { status: 400, type: 'invalid_request_error' },
  invalid_idempotency_key: { status: 400, type: 'idempotency_error' },
  unauthorized: { status: 401, type: 'authentication_error' },
  not_found: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  idempotency_request_in_progress: { status: 409, type: 'idempotency_error' },
  checkout_session_not_open: { status: 409, type: 'invalid_request_error' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  insufficient_funds: { status: 422, type: 'invalid_request_error' },
  idempotency_key_reused: { status: 422, type: 'idempotency_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  error: { type: string; code: ErrorCode; message: string; param?: string };
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  toBody(): ErrorBody {
    const { type } = ERROR_CODES[this.code];
    return { error: { type, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) } };
  }
}

export const internalError = () =>
  new ApiError('internal_error', 'An internal error occurred. It has been logged; retrying with the same idempotency key is safe.');
