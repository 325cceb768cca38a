/** Time source of the simulator: session TTL, token expiry and timestamps all read it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Moves time forward (the `/__sim/clock` hook). */
  advance(seconds: number): void;
}

/** Wall-clock time plus an offset that only grows. */
export function systemClock(now: () => number = Date.now): Clock {
  let offsetMs = 0;
  return {
    now: () => now() + offsetMs,
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
  };
}

/** A clock frozen at `startMs` that moves only when advanced (unit tests). */
export function fixedClock(startMs: number): Clock {
  let current = startMs;
  return {
    now: () => current,
    advance(seconds) {
      current += seconds * 1000;
    },
  };
}
