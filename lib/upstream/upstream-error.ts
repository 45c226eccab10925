import { ApiError, type ErrorBody } from '../contract';

/** Marks an UpstreamError from any copy of this module (see hasInstance). */
const BRAND = Symbol.for('merchant-payments.upstream-error');

/** A final answer from the adapter that is not a success: an upstream refusal, or no answer at all. */
export class UpstreamError extends Error {
  readonly [BRAND] = true;

  /**
   * Next bundles this module once per layer (route handlers, pages), while the
   * adapter is one per process (lib/upstream/index.ts): an error thrown by it may
   * come from another copy of the class, so `instanceof` checks the brand.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
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
