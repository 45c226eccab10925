/**
 * Counts failed authentications per client address in a fixed one-minute window.
 * Valid keys are never counted or slowed; an address over the limit gets 429 for
 * further failures until its window ends. In memory, per instance: each instance
 * of a multi-instance deployment enforces its own limit.
 */
export class AuthFailureLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the address may try again, or 0 when it is not limited. */
  blockedFor(address: string): number {
    const w = this.windows.get(address);
    if (!w || w.resetAt <= this.now() || w.count < this.limit) return 0;
    return Math.ceil((w.resetAt - this.now()) / 1000);
  }

  recordFailure(address: string): void {
    const now = this.now();
    let w = this.windows.get(address);
    if (!w || w.resetAt <= now) {
      if (this.windows.size >= 10_000) this.prune(now);
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(address, w);
    }
    w.count++;
  }

  private prune(now: number) {
    for (const [address, w] of this.windows) if (w.resetAt <= now) this.windows.delete(address);
    // Still full of live windows (a flood of addresses): forget the oldest rather than grow.
    if (this.windows.size >= 10_000) this.windows.clear();
  }
}
