/**
 * When a failed delivery is tried again. After the immediate first attempt, the
 * Standard Webhooks schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
 * 24 h (WEBHOOK_RETRY_DELAYS_SECONDS), each stretched by up to 10% at random so
 * that endpoints recovering from an outage are not hit by every retry at once.
 * A Retry-After on 429 or 503 is honoured when it asks for longer.
 */
export const DEFAULT_RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

/** Seconds until the next attempt after failed attempt number `attempts` (1-based), or undefined when none is left. */
export function nextDelaySeconds(
  delays: readonly number[],
  attempts: number,
  opts: { status?: number; retryAfterSeconds?: number; random?: () => number } = {},
): number | undefined {
  const base = delays[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = base * (1 + 0.1 * (opts.random ?? Math.random)());
  const asked = opts.status === 429 || opts.status === 503 ? (opts.retryAfterSeconds ?? 0) : 0;
  return Math.max(jittered, asked);
}
