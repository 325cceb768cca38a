import { describe, expect, it } from "vitest";
import { MemoryMetrics, OperatorMetrics, operatorRegistry } from "../../src/runtime/telemetry/index.ts";
import { lintMetrics, lintRules, promtoolLint, promtoolPath } from "../support/promlint.testing.ts";

/** An exposition breaking each rule once, and one family breaking none. */
const BAD = `# HELP requests_count A counter without its suffix.
# TYPE requests_count counter
requests_count 1
# HELP open_handles_total A gauge named as a counter.
# TYPE open_handles_total gauge
open_handles_total 3
# TYPE no_help_seconds gauge
no_help_seconds 1
# HELP latency_milliseconds A non-base unit.
# TYPE latency_milliseconds gauge
latency_milliseconds 5
# HELP queue_gauge The type in the name.
# TYPE queue_gauge gauge
queue_gauge 1
# HELP depthNow camelCase.
# TYPE depthNow gauge
depthNow 1
# HELP items A camelCase label and a quantile label.
# TYPE items gauge
items{itemKind="a",quantile="0.5"} 1
# HELP size_mb An abbreviated unit.
# TYPE size_mb gauge
size_mb 1
# HELP request_duration_seconds A histogram, as it should be.
# TYPE request_duration_seconds histogram
request_duration_seconds_bucket{le="1"} 1
request_duration_seconds_bucket{le="+Inf"} 1
request_duration_seconds_sum 0.5
request_duration_seconds_count 1
`;

const sorted = (problems: { metric: string; text: string }[]) =>
  problems.map((p) => `${p.metric} ${p.text}`).sort();

describe("the metrics lint (promtool check metrics, or its rules)", () => {
  it("finds each broken rule, in promtool's words, and nothing in a well-named histogram", () => {
    const found = sorted(lintRules(BAD));
    expect(found).toEqual(
      [
        'requests_count counter metrics should have "_total" suffix',
        'requests_count non-histogram and non-summary metrics should not have "_count" suffix',
        'open_handles_total non-counter metrics should not have "_total" suffix',
        "no_help_seconds no help text",
        'latency_milliseconds use base unit "seconds" instead of "milliseconds"',
        "queue_gauge metric name should not include type 'gauge'",
        "depthNow metric names should be written in 'snake_case' not 'camelCase'",
        "items label names should be written in 'snake_case' not 'camelCase'",
        'items non-summary metrics should not have "quantile" label',
        "size_mb metric names should not contain abbreviated units",
      ].sort(),
    );
  });

  it.runIf(promtoolPath() !== undefined)("agrees with promtool where it is installed", () => {
    expect(sorted(lintRules(BAD))).toEqual(sorted(promtoolLint(promtoolPath()!, BAD)));
  });

  it("passes every family the operator registers (the process collectors included)", async () => {
    const registry = operatorRegistry({});
    new OperatorMetrics(registry);
    new MemoryMetrics(registry, () => ({}));
    const { by, problems } = lintMetrics(await registry.metrics());
    expect(problems, `found by ${by}`).toEqual([]);
  });
});
