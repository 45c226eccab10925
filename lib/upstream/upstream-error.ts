import { z } from 'zod';

/** The one error shape, upstream and in the console: { error: { type, code, message, param? } }. */
export const errorBodySchema = z.object({
  error: z.object({ type: z.string(), code: z.string(), message: z.string(), param: z.string().optional() }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A final answer from the adapter that is not a success: an upstream refusal, or no answer at all. */
export class UpstreamError extends Error {
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

/** No usable answer after every retry: the request may or may not have been carried out. */
export const outcomeUnknown = (detail: string) =>
  new UpstreamError(503, {
    error: {
      type: 'api_error',
      code: 'upstream_unavailable',
      message: `The payment API did not answer (${detail}). The outcome is unknown; retrying with the same idempotency key is safe.`,
    },
  });

export const invalidResponse = (status: number) =>
  new UpstreamError(502, {
    error: { type: 'api_error', code: 'upstream_invalid_response', message: `The payment API sent a response the console does not understand (HTTP ${status}).` },
  });
