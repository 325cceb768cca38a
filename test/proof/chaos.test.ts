// Issue 9 item 4 (small scale of item 2): `npm run chaos` in a short form, so a regression
// (a duplicate under faults, a stuck finalizer, a leaked object, a secret in a log) fails CI.
import { describe, expect, it } from "vitest";
import { runChaos } from "../chaos/chaos.ts";

describe("chaos (short)", () => {
  it("every resource becomes Ready and is deleted cleanly under API faults, kills, cut watches and devcluster restarts", async () => {
    const result = await runChaos({ size: 40, durationMs: 25_000, meanGapMs: 2500, timeoutMs: 120_000 });
    expect(result.failures).toEqual([]);
    // The run really was disrupted, in every way the issue names.
    expect(result.figures.operatorKills).toBeGreaterThanOrEqual(1);
    expect(result.figures.watchCuts).toBeGreaterThanOrEqual(1);
    expect(result.figures.devclusterRestarts).toBeGreaterThanOrEqual(1);
    expect(result.figures.disruptedForMs).toBeGreaterThan(0);
    expect(
      Number(result.figures.injected500) +
        Number(result.figures.injected503) +
        Number(result.figures.injected429),
    ).toBeGreaterThan(0);
  }, 300_000);
});
