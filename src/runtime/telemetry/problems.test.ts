import { describe, expect, it } from "vitest";
import { FakeClock, memoryLog } from "../testing/index.ts";
import { duration, ProblemLog, type Trouble } from "./problems.ts";

const forbidden = (subject: string): Trouble => ({
  cause: "forbidden list",
  subject,
  message: `cannot list ${subject} (403 Forbidden); apply deploy/operator/rbac.yaml`,
  fields: { verb: "list", reason: "forbidden" },
});

function setup(gatherMs = 1000) {
  const clock = new FakeClock();
  const { log, lines } = memoryLog("info");
  const problems = new ProblemLog({ log, clock, gatherMs, intervalMs: 60_000 });
  return { clock, lines, problems };
}

describe("ProblemLog", () => {
  it("logs a persisting cause once when it starts, at most once a minute with a count, and once when it clears", () => {
    const { clock, lines, problems } = setup();
    // Retried every 500 ms for ten minutes: 1,200 failures.
    for (let i = 0; i < 1200; i++) {
      problems.failed(forbidden("accounts.cloud.svc.io"));
      clock.advance(500);
    }
    problems.succeeded("accounts.cloud.svc.io");
    const msgs = lines.map((l) => String(l.msg));
    // The first line, one per minute after it (nine: the tenth minute ends at the fix), the resolved one.
    expect(msgs).toHaveLength(11);
    expect(msgs[0]).toBe(
      "cannot list accounts.cloud.svc.io (403 Forbidden); apply deploy/operator/rbac.yaml",
    );
    expect(lines[0]).toMatchObject({ level: 40, problem: "started", verb: "list", reason: "forbidden" });
    expect(msgs[1]).toMatch(
      /^still failing: cannot list accounts\.cloud\.svc\.io .* \(121 failed attempts in the last 1m\)$/,
    );
    expect(lines[1]).toMatchObject({ problem: "persists", failures: 121 });
    expect(msgs.at(-1)).toBe(
      "resolved: accounts.cloud.svc.io works again (after 1200 failed attempts over 10m)",
    );
    expect(lines.at(-1)).toMatchObject({ level: 30, problem: "resolved", failures: 1200 });
    expect(problems.open).toBe(0);
  });

  it("gathers the subjects one cause breaks at once into its first line", () => {
    const { clock, lines, problems } = setup();
    for (const r of ["accounts", "deployments", "networks", "subnets", "routes", "volumes", "permissions"])
      problems.failed(forbidden(`${r}.cloud.svc.io`));
    expect(lines).toHaveLength(0);
    clock.advance(1000);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(
      /^cannot list permissions\.cloud\.svc\.io .*; also failing: accounts\.cloud\.svc\.io, deployments\.cloud\.svc\.io, networks\.cloud\.svc\.io, subnets\.cloud\.svc\.io, routes\.cloud\.svc\.io and 1 more$/,
    );
    // Cleared only when every subject of the cause works again.
    for (const r of ["accounts", "deployments", "networks", "subnets", "routes", "volumes"])
      problems.succeeded(`${r}.cloud.svc.io`);
    expect(lines).toHaveLength(1);
    problems.succeeded("permissions.cloud.svc.io");
    expect(lines[1]!.msg).toMatch(/^resolved: accounts\.cloud\.svc\.io, .* and 2 more work again/);
  });

  it("never logs a cause that clears before its first line (a watch that reconnects)", () => {
    const { clock, lines, problems } = setup();
    problems.failed(forbidden("accounts.cloud.svc.io"));
    clock.advance(400);
    problems.succeeded("accounts.cloud.svc.io");
    clock.advance(5000);
    expect(lines).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it("keeps causes apart, and forgets a subject without a resolved line", () => {
    const { lines, problems } = setup(0);
    problems.failed(forbidden("accounts.cloud.svc.io"));
    problems.failed({
      cause: "unreachable",
      subject: "create events",
      message: "cannot reach the apiserver",
    });
    expect(lines.map((l) => l.msg)).toEqual([
      "cannot list accounts.cloud.svc.io (403 Forbidden); apply deploy/operator/rbac.yaml",
      "cannot reach the apiserver",
    ]);
    problems.forget("accounts.cloud.svc.io");
    problems.succeeded("create events");
    expect(lines).toHaveLength(3);
    expect(lines[2]!.msg).toMatch(/^resolved: create events works again/);
  });

  it("holds at most maxCauses causes; more are logged at debug only", () => {
    const clock = new FakeClock();
    const { log, lines } = memoryLog("debug");
    const problems = new ProblemLog({ log, clock, gatherMs: 0, maxCauses: 2 });
    for (let i = 0; i < 5; i++) problems.failed({ cause: `c${i}`, subject: `s${i}`, message: `m${i}` });
    expect(problems.open).toBe(2);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, "m0"],
      [40, "m1"],
      [20, "m2"],
      [20, "m3"],
      [20, "m4"],
    ]);
  });
});

describe("duration", () => {
  it.each([
    [999, "1s"],
    [45_000, "45s"],
    [185_000, "3m5s"],
    [3_720_000, "1h2m"],
    [7_200_000, "2h"],
  ])("%d ms is %s", (ms, text) => expect(duration(ms)).toBe(text));
});
