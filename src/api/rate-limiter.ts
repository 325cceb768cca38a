/**
 * Token bucket per account, shared by every caller of one client. `reserve()` is
 * synchronous and hands out time slots in call order (tokens may go negative, which
 * queues later callers behind earlier ones), so a burst of thousands of reconciles
 * is spread over time instead of flooding the service.
 */

export interface RateLimitOptions {
  /** Sustained requests per second. */
  ratePerSecond: number;
  /** Requests allowed at once after an idle period. */
  burst: number;
}

/** Safe for one account: real clients of the service make a handful of calls per second. */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { ratePerSecond: 10, burst: 20 };

export class TokenBucket {
  readonly ratePerSecond: number;
  readonly burst: number;
  private readonly now: () => number;
  private tokens: number;
  private updatedAt: number;

  constructor(options: RateLimitOptions, now: () => number = Date.now) {
    if (!(options.ratePerSecond > 0)) throw new RangeError("rateLimit.ratePerSecond must be > 0");
    if (!(options.burst >= 1)) throw new RangeError("rateLimit.burst must be >= 1");
    this.ratePerSecond = options.ratePerSecond;
    this.burst = options.burst;
    this.now = now;
    this.tokens = options.burst;
    this.updatedAt = now();
  }

  /** Takes one token; returns how many milliseconds the caller must wait before sending (0: go now). */
  reserve(): number {
    const now = this.now();
    const refill = ((now - this.updatedAt) / 1000) * this.ratePerSecond;
    this.tokens = Math.min(this.burst, this.tokens + refill);
    this.updatedAt = now;
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    return Math.ceil((-this.tokens / this.ratePerSecond) * 1000);
  }
}
