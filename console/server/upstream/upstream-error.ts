import { ApiError, type ErrorBody } from '../../../lib/contract';

const BRAND = Symbol.for('merchant-payments.UpstreamError');

/**
 * A final answer from the adapter that is not a success: an upstream refusal, or no answer at all.
 * The adapter is one per process (globalThis), made by whichever bundle of Next's first asked for it,
 * while each page and route bundle has its own copy of this class: `instanceof` checks a brand
 * (Symbol.for, the same in every copy) instead of the class, so every copy recognises every other's.
 */
export class UpstreamError extends Error {
  readonly [BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.error.message);
    this.name = 'UpstreamError';
  }

  get code(): string {
    return this.body.error.code;
  }
}

/** An answer the adapter makes itself, in the one shape, from the one error table. */
const ownAnswer = (error: ApiError) => new UpstreamError(error.status, error.toBody());

/** No usable answer after every retry: the request may or may not have been carried out. */
export const outcomeUnknown = (detail: string) =>
  ownAnswer(
    new ApiError(
      'upstream_unavailable',
      `The payment API did not answer (${detail}). The outcome is unknown; retrying with the same idempotency key is safe.`,
    ),
  );

export const invalidResponse = (status: number) =>
  ownAnswer(new ApiError('upstream_invalid_response', `The payment API sent a response the console does not understand (HTTP ${status}).`));
