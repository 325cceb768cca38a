import { describe, expect, it } from "vitest";
import { rejection } from "../errors.testing.ts";
import { readDataWindow, readGraphParams } from "./monitoring-metrics.ts";

describe("readDataWindow", () => {
  const cases: { reason: string; start: string; end: string; want: RegExp }[] = [
    { reason: "last 10 minutes", start: "-600", end: "0", want: /^accepted$/ },
    { reason: "empty window", start: "0", end: "0", want: /^accepted$/ },
    { reason: "a positive start", start: "5", end: "0", want: /start must be 0 or a negative integer/ },
    { reason: "-0", start: "-0", end: "0", want: /start must be/ },
    { reason: "a leading zero", start: "-010", end: "0", want: /start must be/ },
    { reason: "a fraction", start: "-60", end: "-1.5", want: /end must be/ },
    { reason: "spaces", start: " -60", end: "0", want: /start must be/ },
    { reason: "start after end", start: "-10", end: "-20", want: /start must not be after end/ },
  ];
  it.each(cases)("$reason", ({ start, end, want }) => {
    expect(rejection(() => readDataWindow({ start, end }))).toMatch(want);
  });
});

describe("readGraphParams", () => {
  it("fills the defaults of spec 4.18", () => {
    expect(readGraphParams({})).toEqual({
      period: "day",
      size: "small",
      title: "",
      tz: "America/Los_Angeles",
    });
  });

  it.each([
    { reason: "UTC", tz: "UTC", want: /^accepted$/ },
    { reason: "a region/city zone", tz: "Europe/Paris", want: /^accepted$/ },
    { reason: "a made-up zone", tz: "Mars/Olympus", want: /tz must be a time zone name/ },
    { reason: "an offset", tz: "+02:00x", want: /tz must be/ },
  ])("tz: $reason", ({ tz, want }) => {
    expect(rejection(() => readGraphParams({ tz }))).toMatch(want);
  });

  it("limits the title", () => {
    expect(rejection(() => readGraphParams({ title: "t".repeat(256) }))).toMatch(/title must be at most 255/);
  });
});
