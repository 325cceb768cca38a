/**
 * The per-object drift-check period of the `cloud.svc.io/resync-interval` annotation: a Go duration
 * (`90s`, `2m`, `1h30m`), at least 30 s. A Ready object that carries one is reconciled again after
 * that long (one show of its service object), on top of the operator-wide resync.
 */

/** Below this a per-object period would cost more calls than any drift is worth finding that fast. */
export const MIN_RESYNC_INTERVAL_MS = 30_000;

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

// µ and μ written as escapes: the bundle stays ASCII (test/deploy/bundle.test.ts).
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;

/** Go's time.ParseDuration, in milliseconds; undefined when the text is not a duration. Signs are refused. */
export function parseGoDuration(text: string): number | undefined {
  if (text === "0") return 0;
  if (text === "") return undefined;
  PART.lastIndex = 0;
  let ms = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const m = PART.exec(text);
    if (!m || m.index !== at) return undefined;
    ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return ms;
}

/** The annotation's period, or why it cannot be used (the operator-wide resync then applies). */
export function resyncInterval(value: string | undefined): { ms: number } | { problem: string } | undefined {
  if (value === undefined) return undefined;
  const ms = parseGoDuration(value.trim());
  if (ms === undefined) return { problem: `"${value}" is not a Go duration such as 90s, 5m or 1h30m` };
  if (ms < MIN_RESYNC_INTERVAL_MS) return { problem: `"${value}" is shorter than the minimum of 30s` };
  return { ms: Math.round(ms) };
}
