import { describe, expect, it } from "vitest";
import { rejection } from "../errors.testing.ts";
import { type AlertSpecRecord, applyWrite, checkEscalateOrVote } from "./alert-specs.ts";

const base: Omit<AlertSpecRecord, "id"> = {
  name: "n",
  description: null,
  duration: 5,
  threshold: "1",
  condition: ">",
  file: "f",
  variable: "v",
  escalation_name: "critical",
  vote_tag: null,
  vote_type: null,
  subject_href: "/api/servers/1",
  created_at: 0,
  updated_at: 0,
};

describe("checkEscalateOrVote", () => {
  const cases: {
    reason: string;
    spec: Pick<AlertSpecRecord, "escalation_name" | "vote_type" | "vote_tag">;
    want: RegExp;
  }[] = [
    {
      reason: "escalating",
      spec: { escalation_name: "e", vote_type: null, vote_tag: null },
      want: /^accepted$/,
    },
    {
      reason: "voting with a tag",
      spec: { escalation_name: null, vote_type: "grow", vote_tag: "t" },
      want: /^accepted$/,
    },
    {
      reason: "neither",
      spec: { escalation_name: null, vote_type: null, vote_tag: null },
      want: /^400 .*either escalate or vote/,
    },
    { reason: "both", spec: { escalation_name: "e", vote_type: "shrink", vote_tag: "t" }, want: /not both/ },
    {
      reason: "a vote without its tag",
      spec: { escalation_name: null, vote_type: "grow", vote_tag: null },
      want: /vote_tag\] is required/,
    },
    {
      reason: "a tag without a vote",
      spec: { escalation_name: "e", vote_type: null, vote_tag: "t" },
      want: /vote_tag\] is only allowed/,
    },
  ];
  it.each(cases)("$reason", ({ spec, want }) => {
    expect(rejection(() => checkEscalateOrVote(spec))).toMatch(want);
  });
});

describe("applyWrite", () => {
  it("turns duration digits into an integer and blanks into null", () => {
    const next = applyWrite(base, { duration: "0042", description: "", escalation_name: "warn" });
    expect(next).toMatchObject({ duration: 42, description: null, escalation_name: "warn" });
  });

  it("does not modify the record it is given", () => {
    applyWrite(base, { name: "other" });
    expect(base.name).toBe("n");
  });

  it("refuses a duration beyond a 32-bit integer", () => {
    expect(rejection(() => applyWrite(base, { duration: "99999999999" }))).toMatch(
      /duration\] must be at most/,
    );
  });

  it("switches to voting when the escalation is blanked in the same write", () => {
    const next = applyWrite(base, { escalation_name: "", vote_type: "grow", vote_tag: "web" });
    expect(next).toMatchObject({ escalation_name: null, vote_type: "grow", vote_tag: "web" });
  });
});
