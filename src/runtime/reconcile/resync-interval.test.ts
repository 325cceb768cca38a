import { describe, expect, it } from "vitest";
import { parseGoDuration, resyncInterval } from "./resync-interval.ts";

describe("parseGoDuration", () => {
  it.each([
    ["90s", 90_000],
    ["2m", 120_000],
    ["1h30m", 5_400_000],
    ["1.5h", 5_400_000],
    ["2m30.5s", 150_500],
    ["300ms", 300],
    ["0", 0],
    [".5m", 30_000],
  ])("reads %s as %d ms", (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(["", "5", "10 m", "-1m", "+1m", "1d", "m", "1m2", "1h 2m", "abc"])("refuses %j", (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe("resyncInterval", () => {
  it("is undefined without the annotation", () => {
    expect(resyncInterval(undefined)).toBeUndefined();
  });

  it("gives the period of a valid value of 30s or more", () => {
    expect(resyncInterval("30s")).toEqual({ ms: 30_000 });
    expect(resyncInterval(" 2m ")).toEqual({ ms: 120_000 });
  });

  it("names the rule a bad value breaks", () => {
    expect(resyncInterval("10s")).toEqual({ problem: '"10s" is shorter than the minimum of 30s' });
    expect(resyncInterval("2 minutes")).toEqual({
      problem: '"2 minutes" is not a Go duration such as 90s, 5m or 1h30m',
    });
  });
});
