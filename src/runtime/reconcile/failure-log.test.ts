import { describe, expect, it } from "vitest";
import { ProblemLog } from "../telemetry/index.ts";
import { FakeClock, memoryLog } from "../testing/index.ts";
import type { PhaseRun } from "./context.ts";
import { logRetriedFailure } from "./failure-log.ts";

const throttled = new Error("GET /api/deployments -> 429 TooManyRequests");
const invalid = new Error("POST /api/deployments -> 422 bad name");

function runOf(name: string, log: ReturnType<typeof memoryLog>["log"], problems: ProblemLog): PhaseRun {
  return {
    key: `Deployment/a/${name}`,
    kind: { kind: "Deployment" },
    obj: { metadata: { namespace: "a", name }, spec: { accountRef: { name: "default" } } },
    log,
    around: { problems },
    policy: {
      explainServiceError: (error: unknown) =>
        error === throttled
          ? { cause: "throttled", transient: true, message: "the service is throttling" }
          : undefined,
    },
  } as unknown as PhaseRun;
}

describe("logRetriedFailure", () => {
  it("makes one line of a transient service failure many resources share, and one per attempt of the rest", () => {
    const { log, lines } = memoryLog("info");
    const problems = new ProblemLog({ log, clock: new FakeClock(), gatherMs: 0 });
    for (let attempt = 0; attempt < 5; attempt++)
      for (let i = 0; i < 20; i++) logRetriedFailure(runOf(`d${i}`, log, problems), throttled);
    expect(lines.map((l) => l.msg)).toEqual(["Deployment a/d0: the service is throttling"]);
    logRetriedFailure(runOf("bad", log, problems), invalid);
    logRetriedFailure(runOf("bad", log, problems), invalid);
    expect(lines.slice(1).map((l) => l.msg)).toEqual([
      "reconcile failed; will retry",
      "reconcile failed; will retry",
    ]);
    for (let i = 0; i < 20; i++) problems.succeeded(`Deployment/a/d${i}`);
    expect(lines.at(-1)!.msg).toMatch(
      /^resolved: Deployment\/a\/d0, .* and 15 more work again \(after 100 failed attempts/,
    );
  });
});
