import { callApi, type ApiCallOptions, type ApiResult } from './api-server';
import { OpenApiMismatchError } from './openapi-check';
import type { JsonAnswer } from './json-answer';

/** The spec's client retry schedule: 1 s, 2 s, 4 s, then every 4 s. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000];

export interface AnsweredCall<T> {
  result: ApiResult<T>;
  attempts: number;
  /** Attempts that ended in a network error or timeout (no answer at all). */
  networkErrors: number;
  /** The status of every answered attempt, retried ones included. */
  statuses: number[];
  /** Every answered attempt: its request-id header, when it was sent and when its answer arrived (Date.now()). */
  answers: { requestId: string; status: number; sentAt: number; at: number }[];
}

/** Worth retrying with the same key: no answer, a 5xx, or a duplicate still in progress. */
const retryable = (status: number) => status >= 500 || status === 409;

/**
 * Sends one command with one idempotency key (opts.idempotencyKey) until it gets a final answer, as
 * a careful merchant server would. `baseUrl` is asked again for every attempt,
 * so a load can spread retries over several instances.
 */
export async function callUntilAnswered<T = JsonAnswer>(
  baseUrl: () => string,
  secretKey: string,
  body: unknown,
  opts: ApiCallOptions & { deadlineMs?: number; attemptTimeoutMs?: number; delaysMs?: number[] } = {},
): Promise<AnsweredCall<T>> {
  const delays = opts.delaysMs ?? RETRY_DELAYS_MS;
  const deadline = Date.now() + (opts.deadlineMs ?? 120_000);
  let attempts = 0;
  let networkErrors = 0;
  const statuses: number[] = [];
  const answers: AnsweredCall<T>['answers'] = [];
  for (;;) {
    attempts++;
    const sentAt = Date.now();
    let result: ApiResult<T> | undefined;
    try {
      result = await callApi<T>(baseUrl(), secretKey, body, { ...opts, signal: AbortSignal.timeout(opts.attemptTimeoutMs ?? 10_000) });
    } catch (error) {
      if (error instanceof OpenApiMismatchError) throw error;
      networkErrors++;
    }
    if (result) {
      statuses.push(result.status);
      answers.push({ requestId: result.headers.get('request-id') ?? '', status: result.status, sentAt, at: Date.now() });
    }
    if (result && !retryable(result.status)) return { result, attempts, networkErrors, statuses, answers };
    if (Date.now() > deadline) {
      throw new Error(`no final answer after ${attempts} attempts (last status ${result?.status ?? 'network error'})`);
    }
    await new Promise((r) => setTimeout(r, delays[Math.min(attempts - 1, delays.length - 1)]));
  }
}
