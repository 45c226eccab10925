import type { ErrorCode } from './generated.ts';

/** Anything the client throws. */
export class PaymentError extends Error {
  /** The idempotency key of a state-changing call: retry later with it, and the action still happens at most once. */
  idempotencyKey?: string;
}

/**
 * The API answered with an error in its one shape (or, for a broken gateway, with
 * something else: `code` is then `invalid_response`). Final 4xx are thrown at once;
 * 409 `idempotency_request_in_progress`, 429 and 5xx only once the retries are spent.
 */
export class PaymentApiError extends PaymentError {
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly type: string;
  readonly param?: string;
  readonly requestId?: string;

  constructor(init: { status: number; code: string; type: string; message: string; param?: string; requestId?: string }) {
    super(init.message);
    this.name = 'PaymentApiError';
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.requestId = init.requestId;
  }
}

/** No answer at all (network error, reset, or no answer within `timeoutMs`) after every retry: the outcome is unknown. */
export class PaymentConnectionError extends PaymentError {
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PaymentConnectionError';
  }
}
