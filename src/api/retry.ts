/** Retry policy: exponential backoff with full jitter, `Retry-After`, bounded attempts and total time. */

export interface RetryOptions {
  /** Total HTTP attempts for one call, the first included. */
  maxAttempts: number;
  /** First backoff ceiling; doubles with each failure. */
  baseDelayMs: number;
  /** Ceiling of one backoff (not of a `Retry-After`, which is honoured up to the time budget). */
  maxDelayMs: number;
  /** No retry starts when it would end after this much time since the call began. */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxElapsedMs: 30_000,
};

/** Statuses worth retrying on an idempotent call. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Methods that are safe to repeat. A POST is only when the caller marks the action idempotent. */
export function isIdempotentMethod(method: string): boolean {
  return (
    method === "GET" || method === "HEAD" || method === "PUT" || method === "DELETE" || method === "OPTIONS"
  );
}

/**
 * Full jitter (AWS architecture blog, "Exponential Backoff And Jitter"): a uniform
 * draw in [0, min(cap, base * 2^(failures-1))], so many clients that failed together
 * do not come back together.
 */
export function backoffDelay(failures: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.floor(random() * ceiling);
}

/**
 * `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3).
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^\d+\.\d+$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export interface RetryDecisionInput {
  /** Attempts made so far (1 after the first failure). */
  attempts: number;
  /** Milliseconds since the call started. */
  elapsedMs: number;
  /** From `Retry-After`, when the answer had one. */
  retryAfterMs?: number;
}

/**
 * How long to wait before the next attempt, or undefined to give up. A `Retry-After`
 * is a floor: the wait is never shorter, but jitter may make it longer.
 */
export function nextRetryDelay(
  input: RetryDecisionInput,
  options: RetryOptions,
  random: () => number,
): number | undefined {
  if (input.attempts >= options.maxAttempts) return undefined;
  const jittered = backoffDelay(input.attempts, options, random);
  const delay = input.retryAfterMs === undefined ? jittered : Math.max(input.retryAfterMs, jittered);
  if (input.elapsedMs + delay > options.maxElapsedMs) return undefined;
  return delay;
}
