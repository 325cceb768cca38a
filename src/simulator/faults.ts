import * as z from "zod";

const probability = z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1");
const millis = z
  .number()
  .int("must be a whole number of ms")
  .min(0, "must be 0 or more")
  .max(600_000, "must be at most 600000");

/** Body of `POST /__sim/faults`; `{}` clears every fault. Each POST replaces the whole set. */
export const faultsSchema = z
  .object({
    latencyMs: millis.optional(),
    jitterMs: millis.optional(),
    error500: probability.optional(),
    error503: probability.optional(),
    throttle429: probability.optional(),
    reset: probability.optional(),
    commitThenDrop: probability.optional(),
    /** Seconds sent in `Retry-After` with a 429 (default 1). */
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
  })
  .strict();

export type Faults = z.infer<typeof faultsSchema>;

/** What to do with one /api request before (or after) handling it. */
export type FaultDecision =
  | { kind: "none" }
  | { kind: "reset" }
  | { kind: "status"; status: 500 | 503 | 429; headers: Record<string, string>; body: string };

/** Holds the fault configuration; `random` is injected so tests can make decisions certain. */
export class FaultInjector {
  private faults: Faults = {};
  private anyActive = false;
  private readonly random: () => number;

  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  get current(): Faults {
    return this.faults;
  }

  set(faults: Faults): void {
    this.faults = faults;
    this.anyActive = Object.values(faults).some((value) => Boolean(value));
  }

  clear(): void {
    this.set({});
  }

  /** Cached: checked on every request. */
  get active(): boolean {
    return this.anyActive;
  }

  delayMs(): number {
    const base = this.faults.latencyMs ?? 0;
    const jitter = this.faults.jitterMs ?? 0;
    return base + (jitter > 0 ? Math.floor(this.random() * (jitter + 1)) : 0);
  }

  /** Decided before the request is handled: drop the connection or answer an error. */
  before(): FaultDecision {
    const f = this.faults;
    if (this.roll(f.reset)) return { kind: "reset" };
    if (this.roll(f.error500)) {
      return { kind: "status", status: 500, headers: {}, body: "InternalServerError: injected fault" };
    }
    if (this.roll(f.error503)) {
      return { kind: "status", status: 503, headers: {}, body: "ServiceUnavailable: injected fault" };
    }
    if (this.roll(f.throttle429)) {
      return {
        kind: "status",
        status: 429,
        headers: { "retry-after": String(f.retryAfterSeconds ?? 1) },
        body: "TooManyRequests: injected fault",
      };
    }
    return { kind: "none" };
  }

  /** Decided after a create or update succeeded: drop the connection instead of answering. */
  dropAfterCommit(): boolean {
    return this.roll(this.faults.commitThenDrop);
  }

  private roll(probability: number | undefined): boolean {
    if (!probability) return false;
    return probability >= 1 || this.random() < probability;
  }
}
