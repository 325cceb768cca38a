import { spawnSync } from "node:child_process";

// `promtool check metrics` for the tests that scrape /metrics: Prometheus's own lint when
// Debian's `prometheus` package (or any promtool) is on PATH, otherwise the same rules written
// out here (client_golang's promlint, which promtool 2.42 runs), so the suite judges the same way
// on a machine without it. The rules' own test holds them against promtool where both exist.

/** One problem, as promtool prints it: the family's name and what is wrong. */
export interface LintProblem {
  metric: string;
  text: string;
}

/** The promtool on PATH, if any. */
export function promtoolPath(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

/** promtool's findings on an exposition, one per line as it prints them ("name text"). */
export function promtoolLint(promtool: string, exposition: string): LintProblem[] {
  const run = spawnSync(promtool, ["check", "metrics"], { input: exposition, encoding: "utf8" });
  if (run.status !== 0 && run.status !== 3)
    throw new Error(`promtool check metrics exited ${run.status}: ${run.stderr}`);
  return run.stderr
    .split("\n")
    .map((line) => /^(\S+) (.+)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, metric, text]) => ({ metric: metric!, text: text! }));
}

/** The exposition's findings: promtool's when it is installed, the rules below when not. */
export function lintMetrics(exposition: string): { by: "promtool" | "rules"; problems: LintProblem[] } {
  const promtool = promtoolPath();
  if (promtool) return { by: "promtool", problems: promtoolLint(promtool, exposition) };
  return { by: "rules", problems: lintRules(exposition) };
}

interface Family {
  name: string;
  type: string;
  help: boolean;
  labels: Set<string>;
}

const UNIT_ABBREVIATIONS = new Set([
  "s",
  "ms",
  "us",
  "ns",
  "sec",
  "b",
  "kb",
  "mb",
  "gb",
  "tb",
  "pb",
  "m",
  "h",
  "d",
]);
const NON_BASE_UNITS: Record<string, string> = {
  minutes: "seconds",
  hours: "seconds",
  days: "seconds",
  weeks: "seconds",
  milliseconds: "seconds",
  millis: "seconds",
  microseconds: "seconds",
  nanoseconds: "seconds",
  kilobytes: "bytes",
  megabytes: "bytes",
  gigabytes: "bytes",
  terabytes: "bytes",
  petabytes: "bytes",
  bits: "bytes",
  percent: "ratios",
  percents: "ratios",
  fahrenheit: "celsius",
};
const CAMEL = /[a-z][A-Z]/;

/** client_golang's promlint rules, in promtool's words, over a text exposition. */
export function lintRules(exposition: string): LintProblem[] {
  const problems: LintProblem[] = [];
  for (const family of families(exposition).values()) {
    const say = (text: string) => problems.push({ metric: family.name, text });
    const { name, type } = family;
    if (!family.help) say("no help text");
    const tokens = name.split("_");
    for (const token of tokens) {
      const base = NON_BASE_UNITS[token];
      if (base) say(`use base unit "${base}" instead of "${token}"`);
    }
    if (type === "counter" && !name.endsWith("_total")) say('counter metrics should have "_total" suffix');
    if (type !== "counter" && type !== "untyped" && name.endsWith("_total"))
      say('non-counter metrics should not have "_total" suffix');
    if (type !== "histogram") {
      if (name.endsWith("_bucket")) say('non-histogram metrics should not have "_bucket" suffix');
      if (family.labels.has("le")) say('non-histogram metrics should not have "le" label');
    }
    if (type !== "histogram" && type !== "summary") {
      if (name.endsWith("_count"))
        say('non-histogram and non-summary metrics should not have "_count" suffix');
      if (name.endsWith("_sum")) say('non-histogram and non-summary metrics should not have "_sum" suffix');
    }
    if (type !== "summary" && family.labels.has("quantile"))
      say('non-summary metrics should not have "quantile" label');
    if (name.includes(`_${type}_`) || name.endsWith(`_${type}`))
      say(`metric name should not include type '${type}'`);
    if (name.includes(":")) say("metric names should not contain ':'");
    if (CAMEL.test(name)) say("metric names should be written in 'snake_case' not 'camelCase'");
    if ([...family.labels].some((l) => CAMEL.test(l)))
      say("label names should be written in 'snake_case' not 'camelCase'");
    if (tokens.some((t) => UNIT_ABBREVIATIONS.has(t.toLowerCase())))
      say("metric names should not contain abbreviated units");
  }
  return problems;
}

/** Each family of the exposition, with the label names its series carry. */
function families(exposition: string): Map<string, Family> {
  const byName = new Map<string, Family>();
  const family = (name: string) => {
    const known = byName.get(name);
    if (known) return known;
    const made: Family = { name, type: "untyped", help: false, labels: new Set() };
    byName.set(name, made);
    return made;
  };
  for (const line of exposition.split("\n")) {
    const comment = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (comment) {
      const f = family(comment[2]!);
      if (comment[1] === "HELP") f.help = (comment[3] ?? "").trim() !== "";
      else f.type = comment[3]!.trim();
      continue;
    }
    const series = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s/.exec(line);
    if (!series) continue;
    const f = byName.get(series[1]!) ?? byName.get(series[1]!.replace(/_(bucket|sum|count)$/, ""));
    const target = f ?? family(series[1]!);
    for (const [, label] of (series[2] ?? "").matchAll(/([a-zA-Z_]\w*)="/g)) target.labels.add(label!);
  }
  return byName;
}
