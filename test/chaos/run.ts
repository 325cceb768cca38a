// `npm run chaos -- [--size N] [--duration 120s] [--gap 3s] [--timeout 10m]`: the chaos run of issue 9.
// Exits 1 when a promise broke (every failure printed), 2 on bad flags.
import { parseArgs } from "node:util";
import { API_FAULTS, runChaos } from "./chaos.ts";

function duration(name: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (!m) {
    process.stderr.write(`--${name}: must be a duration such as 90s, 2m or 500ms (got '${text}')\n`);
    process.exit(2);
  }
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? "s"] ?? 1000);
}

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "500" },
    duration: { type: "string", default: "120s" },
    gap: { type: "string", default: "3s" },
    timeout: { type: "string", default: "10m" },
  },
});
const size = Number(values.size);
if (!Number.isInteger(size) || size < 1) {
  process.stderr.write(`--size: must be a whole number of resources, 1 or more (got '${values.size}')\n`);
  process.exit(2);
}

const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
log(`chaos: ${size} resources, disruptions for ${values.duration}, API faults ${JSON.stringify(API_FAULTS)}`);
const result = await runChaos({
  size,
  durationMs: duration("duration", values.duration),
  meanGapMs: duration("gap", values.gap),
  timeoutMs: duration("timeout", values.timeout),
  log,
});
for (const [k, v] of Object.entries(result.figures)) process.stdout.write(`  ${k.padEnd(20)} ${String(v)}\n`);
if (result.passed) {
  log(
    "PASS: every resource became Ready, no duplicates, nothing left in the service, no finalizer left, no secret in the logs",
  );
} else {
  for (const f of result.failures) process.stdout.write(`FAIL: ${f}\n`);
}
process.exit(result.passed ? 0 : 1);
