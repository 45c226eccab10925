/**
 * Counts failed authentications per client address in a fixed one-minute window.
 * Valid keys are never counted or slowed; an address over the limit gets 429 for
 * further failures until its window ends.
 *
 * Behind Next the address comes from X-Forwarded-For, which a client talking to
 * Next directly can forge; so a global ceiling (`globalFactor` times the
 * per-address limit, across all addresses) bounds what rotating forged addresses
 * can try. In memory, per instance.
 */
export class AuthFailureLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private global = { count: 0, resetAt: 0 };

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly globalFactor = 50,
  ) {}

  /** Seconds until the address may try again, or 0 when it is not limited. */
  blockedFor(address: string): number {
    const now = this.now();
    if (this.global.resetAt > now && this.global.count >= this.limit * this.globalFactor) {
      return Math.ceil((this.global.resetAt - now) / 1000);
    }
    const w = this.windows.get(address);
    if (!w || w.resetAt <= now || w.count < this.limit) return 0;
    return Math.ceil((w.resetAt - now) / 1000);
  }

  recordFailure(address: string): void {
    const now = this.now();
    if (this.global.resetAt <= now) this.global = { count: 0, resetAt: now + this.windowMs };
    this.global.count++;
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
    // Still full of live windows (a flood of addresses): forget them rather than grow; the global ceiling still holds.
    if (this.windows.size >= 10_000) this.windows.clear();
  }
}
