import { z } from 'zod';

/**
 * The one error vocabulary of the service: the API, the console's routes and the
 * hosted checkout page all answer { "error": { type, code, message, param? } }
 * with a code from this table, which is the only place a code meets its HTTP
 * status. Codes are stable: clients (and the SDK) branch on them.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, type: 'invalid_request_error', description: 'The body is not valid UTF-8 JSON.' },
  invalid_request: { status: 400, type: 'invalid_request_error', description: 'A field is missing or invalid; `param` names it.' },
  unknown_action: { status: 400, type: 'invalid_request_error', description: '`action` names no action of this API.' },
  invalid_idempotency_key: { status: 400, type: 'idempotency_error', description: 'The idempotency key breaks the key rule.' },
  invalid_card: { status: 400, type: 'invalid_request_error', description: 'Hosted checkout: the card number is malformed.' },
  webhook_endpoint_limit: {
    status: 400,
    type: 'invalid_request_error',
    description: 'The merchant already has 16 webhook endpoints; delete one first.',
  },
  sandbox_limit: {
    status: 400,
    type: 'invalid_request_error',
    description: 'The merchant already has as many live sandboxes as SANDBOX_LIMIT allows (200 by default); delete one first.',
  },
  unauthorized: { status: 401, type: 'authentication_error', description: 'No valid key (API) or no live session (console).' },
  invalid_secret_key: { status: 401, type: 'authentication_error', description: 'Console sign-in: the key was not accepted.' },
  card_declined: { status: 402, type: 'card_error', description: 'Hosted checkout: the test card was declined.' },
  permission_denied: {
    status: 403,
    type: 'permission_error',
    description: 'A restricted key without the permission the action needs; nothing ran.',
  },
  payout_limit_exceeded: {
    status: 403,
    type: 'permission_error',
    description: "The amount is above the restricted key's max_payout_amount; nothing was debited.",
  },
  cross_origin_request: { status: 403, type: 'invalid_request_error', description: 'Console: a state change from another origin.' },
  not_found: { status: 404, type: 'invalid_request_error', description: 'No such object for this merchant.' },
  method_not_allowed: { status: 405, type: 'invalid_request_error', description: 'Only POST is served on the API path.' },
  idempotency_request_in_progress: {
    status: 409,
    type: 'idempotency_error',
    description: 'The original request with this key is still running: retry with the same key.',
  },
  checkout_session_not_open: { status: 409, type: 'invalid_request_error', description: 'The checkout session was paid or expired.' },
  payout_not_pending: { status: 409, type: 'invalid_request_error', description: 'simulate_payout: the payout is already paid or failed.' },
  payout_not_paid: {
    status: 409,
    type: 'invalid_request_error',
    description: 'simulate_payout (returned): only a paid payout can be returned.',
  },
  // Refunds (docs/api.md, "Refunds").
  checkout_session_not_paid: {
    status: 409,
    type: 'invalid_request_error',
    description: 'Refunds: the checkout session was never paid (open or expired).',
  },
  refund_not_pending: {
    status: 409,
    type: 'invalid_request_error',
    description: 'simulate_refund: the refund already succeeded or failed.',
  },
  payload_too_large: { status: 413, type: 'invalid_request_error', description: 'The body is larger than the limit.' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error', description: 'The body is not application/json.' },
  insufficient_funds: { status: 422, type: 'invalid_request_error', description: 'The available balance does not cover the amount.' },
  refund_amount_exceeded: {
    status: 422,
    type: 'invalid_request_error',
    description: 'The refund is larger than what is left to refund of the payment; nothing changed.',
  },
  idempotency_key_reused: { status: 422, type: 'idempotency_error', description: 'The key was used with a different request.' },
  rate_limited: { status: 429, type: 'rate_limit_error', description: 'Too many failed authentications from this address.' },
  internal_error: { status: 500, type: 'api_error', description: 'Unexpected; logged. Retrying with the same idempotency key is safe.' },
  upstream_invalid_response: {
    status: 502,
    type: 'api_error',
    description: 'Console: the payment API sent an answer the console does not understand.',
  },
  service_unavailable: {
    status: 503,
    type: 'api_error',
    description: 'A dependency (the database) is unreachable: retry after `Retry-After` with the same key.',
  },
  upstream_unavailable: {
    status: 503,
    type: 'api_error',
    description: 'Console: the payment API did not answer; the outcome is unknown, retry with the same key.',
  },
  // Payout approvals and account holders.
  self_approval_not_allowed: {
    status: 403,
    type: 'permission_error',
    description: 'Four eyes: a key may not approve or reject a payout it created; nothing changed.',
  },
  payout_not_awaiting_approval: {
    status: 409,
    type: 'invalid_request_error',
    description: 'approve_payouts / reject_payouts: a payout named is not awaiting approval; nothing changed.',
  },
  account_name_mismatch: {
    status: 422,
    type: 'invalid_request_error',
    description: "account_holder_name does not match the bank's name for the account (or the account is invalid); nothing was debited.",
  },
} as const satisfies Record<string, { status: number; type: string; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** The error body as it travels; `code` is a string so that a newer server's code still parses. */
export const errorBodySchema = z.object({
  error: z.object({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    request_id: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error that becomes an answer in the one shape: thrown by the core, the console and the hosted page. */
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

/**
 * An error answer written outside an ApiError's catch (node:http handlers, the admin endpoint): its
 * status and JSON body from the table above, so no body is written by hand.
 */
export function errorAnswer(code: ErrorCode, message: string, param?: string): { status: number; body: string } {
  const error = new ApiError(code, message, param);
  return { status: error.status, body: JSON.stringify(error.toBody()) };
}

/** The payment API's path asked of a process that serves the console only: the API is elsewhere, and where. */
export const apiElsewhereAnswer = (baseUrl: string | undefined) =>
  errorAnswer('not_found', `This deployment serves the console only; the payment API is at ${baseUrl}.`);

export const internalError = () =>
  new ApiError('internal_error', 'An internal error occurred. It has been logged; retrying with the same idempotency key is safe.');
