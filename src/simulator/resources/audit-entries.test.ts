import { describe, expect, it } from "vitest";
import { rejection } from "../errors.testing.ts";
import { checkSummary, readWindow } from "./audit-entries.ts";

describe("readWindow", () => {
  const at = (d: string) => `${d} 00:00:00 +0000`;
  const cases: { reason: string; start: string; end: string; limit: string; want: RegExp }[] = [
    { reason: "a day", start: at("2026/01/01"), end: at("2026/01/02"), limit: "10", want: /^accepted$/ },
    {
      reason: "start equals end",
      start: at("2026/01/01"),
      end: at("2026/01/01"),
      limit: "1",
      want: /^accepted$/,
    },
    { reason: "92 days", start: at("2026/01/01"), end: at("2026/04/03"), limit: "1000", want: /^accepted$/ },
    {
      reason: "93 days exactly",
      start: at("2026/01/01"),
      end: at("2026/04/04"),
      limit: "1",
      want: /less than 93 days/,
    },
    {
      reason: "end before start",
      start: at("2026/01/02"),
      end: at("2026/01/01"),
      limit: "1",
      want: /end_date must not be before/,
    },
    {
      reason: "a date that does not exist",
      start: at("2026/04/31"),
      end: at("2026/05/01"),
      limit: "1",
      want: /start_date must be a real date/,
    },
    {
      reason: "limit 0",
      start: at("2026/01/01"),
      end: at("2026/01/02"),
      limit: "0",
      want: /limit must be between 1 and 1000/,
    },
    {
      reason: "limit 1001",
      start: at("2026/01/01"),
      end: at("2026/01/02"),
      limit: "1001",
      want: /limit must be between 1 and 1000/,
    },
  ];
  it.each(cases)("$reason", ({ start, end, limit, want }) => {
    expect(rejection(() => readWindow({ start_date: start, end_date: end, limit }))).toMatch(want);
  });

  it("reads offsets: the same instant in two zones is a zero span", () => {
    const w = readWindow({
      start_date: "2026/01/01 00:00:00 +0000",
      end_date: "2025/12/31 16:00:00 -0800",
      limit: "5",
    });
    expect(w.endMs - w.startMs).toBe(0);
    expect(w.limit).toBe(5);
  });
});

describe("checkSummary", () => {
  it.each([
    { reason: "one character", summary: "x", want: /^accepted$/ },
    { reason: "255 characters", summary: "x".repeat(255), want: /^accepted$/ },
    { reason: "255 emoji count as 255", summary: "🙂".repeat(255), want: /^accepted$/ },
    {
      reason: "256 characters",
      summary: "x".repeat(256),
      want: /^400 ParameterError: s must be 1 to 255 characters \(got 256\)$/,
    },
    { reason: "empty", summary: "", want: /got 0/ },
  ])("$reason", ({ summary, want }) => {
    expect(rejection(() => checkSummary("s", summary))).toMatch(want);
  });
});
