import { describe, expect, it } from "vitest";
import { formatAuditDate, parseAuditDate } from "./audit-date.ts";

describe("parseAuditDate", () => {
  const valid: { reason: string; text: string; iso: string }[] = [
    { reason: "UTC", text: "2026/11/22 04:00:00 +0000", iso: "2026-11-22T04:00:00.000Z" },
    {
      reason: "negative offset is behind UTC",
      text: "2026/11/21 20:00:00 -0800",
      iso: "2026-11-22T04:00:00.000Z",
    },
    { reason: "offset with minutes", text: "2026/11/22 09:30:00 +0530", iso: "2026-11-22T04:00:00.000Z" },
    { reason: "leap day exists in 2028", text: "2028/02/29 00:00:00 +0000", iso: "2028-02-29T00:00:00.000Z" },
  ];
  it.each(valid)("accepts $reason", ({ text, iso }) => {
    expect(new Date(parseAuditDate(text) ?? Number.NaN).toISOString()).toBe(iso);
  });

  const invalid: { reason: string; text: string }[] = [
    { reason: "ISO format", text: "2026-11-22T04:00:00Z" },
    { reason: "missing offset", text: "2026/11/22 04:00:00" },
    { reason: "offset without sign", text: "2026/11/22 04:00:00 0000" },
    { reason: "offset with colon", text: "2026/11/22 04:00:00 +00:00" },
    { reason: "one-digit month", text: "2026/1/22 04:00:00 +0000" },
    { reason: "month 13", text: "2026/13/01 00:00:00 +0000" },
    { reason: "day 0", text: "2026/11/00 00:00:00 +0000" },
    { reason: "Feb 30 does not exist", text: "2026/02/30 00:00:00 +0000" },
    { reason: "Feb 29 in a common year", text: "2026/02/29 00:00:00 +0000" },
    { reason: "hour 24", text: "2026/11/22 24:00:00 +0000" },
    { reason: "minute 60", text: "2026/11/22 04:60:00 +0000" },
    { reason: "offset beyond 14 hours", text: "2026/11/22 04:00:00 +1500" },
    { reason: "trailing text", text: "2026/11/22 04:00:00 +0000 x" },
    { reason: "empty", text: "" },
  ];
  it.each(invalid)("refuses $reason", ({ text }) => {
    expect(parseAuditDate(text)).toBeUndefined();
  });
});

describe("formatAuditDate", () => {
  it("formats UTC with +0000 and round-trips through parse", () => {
    const ms = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(formatAuditDate(ms)).toBe("2026/01/02 03:04:05 +0000");
    expect(parseAuditDate(formatAuditDate(ms))).toBe(ms);
  });
});
