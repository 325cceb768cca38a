// `npm run soak -- [--minutes 15] [--resources 2000] [--round 10s] [--out FILE]`: the soak of
// issue 16. Prints the operator's RSS, live heap and map sizes every minute, then the growth from
// minute 2 on. Exits 1 when the goal is missed (RSS or live heap up more than 5%, or a map growing
// with the churn), 2 on bad flags.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { runSoak, SOAK_FAULTS, TREND_POINTS } from "./soak.ts";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "15" },
    resources: { type: "string", default: "2000" },
    round: { type: "string", default: "10s" },
    out: { type: "string" },
  },
});
const minutes = Number(values.minutes);
if (!Number.isInteger(minutes) || minutes < 3)
  fail(`--minutes: must be a whole number of minutes, 3 or more (got '${values.minutes}')`);
const resources = Number(values.resources);
if (!Number.isInteger(resources) || resources < 16)
  fail(`--resources: must be a whole number, 16 or more (got '${values.resources}')`);
const round = /^(\d+)s?$/.exec(values.round);
if (!round || Number(round[1]) < 1) fail(`--round: must be seconds such as 10s (got '${values.round}')`);

const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)}s] ${line}\n`);
log(
  `soak: ${resources} resources for ${minutes} minutes, churn every ${round[1]} s, faults ${JSON.stringify(SOAK_FAULTS)}`,
);
const result = await runSoak({ minutes, resources, roundSeconds: Number(round[1]), log });

process.stdout.write("\nminute   RSS MB   V8 heap MB   external MB   live heap MB   gauge MB   load\n");
const col = (v: number, w: number) => v.toFixed(1).padStart(w);
for (const s of result.samples)
  process.stdout.write(
    `${String(s.minute).padStart(6)} ${col(s.rssMb, 8)} ${col(s.heapTotalMb, 12)} ${col(s.externalMb, 13)} ${col(s.liveHeapMb, 14)} ${col(s.gaugeMb, 10)} ${col(s.load1m, 6)}\n`,
  );
const g = (name: string, x: typeof result.rss) =>
  `${name}: ${x.endPct}% at the end, ${x.peakPct}% at the peak, trend ${x.trendPctPer15m}% per 15 min (from minute 2)`;
process.stdout.write(`\n${g("RSS", result.rss)}\n${g("live heap", result.liveHeap)}\n`);
if (!result.trendJudged)
  process.stdout.write(`  (the trend is not judged: fewer than ${TREND_POINTS} samples from minute 2)\n`);
for (const [k, v] of Object.entries(result.figures)) process.stdout.write(`  ${k.padEnd(24)} ${String(v)}\n`);
const growing = Object.entries(result.growingMaps);
for (const [map, [a, b]] of growing)
  process.stdout.write(`FAIL: map ${map} grew from ${a} to ${b} entries\n`);
if (values.out) await writeFile(values.out, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(
  result.passed
    ? "PASS: RSS and live heap within 5% from minute 2, no map growing with the churn\n"
    : "FAIL: the goal (RSS and live heap within 5% from minute 2, no growing map) is missed\n",
);
process.exit(result.passed ? 0 : 1);
