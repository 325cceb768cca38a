import { describe, expect, it } from "vitest";
import type { Condition, ManagedObject } from "../sdk/index.ts";
import { blockedState, onlyWaitsForReferences, QUOTED_CHARS, referenceProblem } from "./reference-state.ts";

const T = "2026-01-01T00:00:00Z";
const DUPLICATE =
  "POST /api/deployments failed: 422 Unprocessable Entity: name: A deployment with this name already exists. Please enter a different name.";

function cond(type: string, status: "True" | "False", reason: string, message = ""): Condition {
  return { type, status, reason, message, lastTransitionTime: T, observedGeneration: 2 };
}

function parent(
  conditions: Condition[],
  options: { href?: string; generation?: number; observed?: number; deleting?: boolean } = {},
): ManagedObject {
  return {
    metadata: {
      name: "web",
      namespace: "demo",
      generation: options.generation ?? 2,
      ...(options.deleting ? { deletionTimestamp: T } : {}),
    },
    status: { href: options.href, observedGeneration: options.observed ?? 2, conditions },
  };
}

const stalled = (reason: string, message: string) => [
  cond("Ready", "False", reason, message),
  cond("Synced", "False", reason, message),
  cond("Reconciling", "False", "Idle"),
  cond("Stalled", "True", reason, message),
];

describe("referenceProblem: what a dependent says of a reference it waits for", () => {
  const cases: { reason: string; target: ManagedObject | undefined; want: string | undefined }[] = [
    { reason: "absent from the cache", target: undefined, want: "Deployment web (not found)" },
    {
      reason: "being deleted, whatever its conditions",
      target: parent(stalled("ApiError", DUPLICATE), { deleting: true }),
      want: "Deployment web (being deleted)",
    },
    {
      reason: "Ready with an href: usable",
      target: parent([cond("Ready", "True", "Available")], { href: "/api/deployments/3" }),
      want: undefined,
    },
    {
      reason: "Ready without an href yet: not usable, nothing more to say",
      target: parent([cond("Ready", "True", "Available")]),
      want: "Deployment web (not Ready)",
    },
    {
      reason: "Stalled on the service's 422: its reason and message, and what to do",
      target: parent(stalled("ApiError", DUPLICATE)),
      want: `Deployment web is Stalled (ApiError: ${DUPLICATE}): fix Deployment web first`,
    },
    {
      reason: "Stalled for an older generation: its new spec may have fixed it",
      target: parent(stalled("InvalidSpec", "spec.inputs.X: bad"), { generation: 3, observed: 2 }),
      want: "Deployment web (not Ready)",
    },
    {
      reason: "waiting for its own reference: one 'waiting for', its message after it",
      target: parent([
        cond("Ready", "False", "DependencyNotReady", "waiting for spec.networkRef: Network main (not Ready)"),
      ]),
      want: "Deployment web is waiting for spec.networkRef: Network main (not Ready)",
    },
    {
      reason: "waiting for its Account: the reason, then the Account's words",
      target: parent([
        cond(
          "Ready",
          "False",
          "DependencyNotReady",
          "spec.accountRef: Account default is not ready: Secret s not found",
        ),
      ]),
      want: "Deployment web is waiting (DependencyNotReady: spec.accountRef: Account default is not ready: Secret s not found)",
    },
    {
      reason: "creating: progress that needs nobody, so no detail",
      target: parent([
        cond("Ready", "False", "Creating", "created /api/deployments/3"),
        cond("Reconciling", "True", "Creating"),
      ]),
      want: "Deployment web (not Ready)",
    },
    {
      reason: "a transient error being retried: not blocked, no detail",
      target: parent([
        cond("Ready", "False", "ApiError", "503"),
        cond("Synced", "False", "ReconcileError", "503"),
      ]),
      want: "Deployment web (not Ready)",
    },
    {
      reason: "never reconciled",
      target: { metadata: { name: "web", namespace: "demo" } },
      want: "Deployment web (not Ready)",
    },
  ];
  it.each(cases)("$reason", ({ target, want }) => {
    expect(referenceProblem("Deployment", "web", target)).toBe(want);
  });

  it("quotes at most QUOTED_CHARS of the parent's message, so a chain cannot flood a condition", () => {
    const long = "x".repeat(5_000);
    const said = blockedState("Deployment", "web", parent(stalled("ApiError", long)))!;
    expect(said).toContain(`${"x".repeat(QUOTED_CHARS - 3)}...`);
    expect(said).not.toContain("x".repeat(QUOTED_CHARS));
    expect(said.length).toBeLessThan(QUOTED_CHARS + 100);
  });
});

describe("onlyWaitsForReferences: a new resource whose reconcile would only park", () => {
  const child = (
    extra: Partial<ManagedObject["metadata"]> = {},
    conditions?: Condition[],
  ): ManagedObject => ({
    metadata: { name: "sub", namespace: "demo", generation: 1, ...extra },
    ...(conditions ? { status: { conditions } } : {}),
  });
  const working = parent([cond("Ready", "False", "Creating")]);
  const ready = parent([cond("Ready", "True", "Available")], { href: "/api/networks/1" });
  const web = [{ kind: "Network", namespace: "demo", name: "web" }];
  const two = [...web, { kind: "Deployment", namespace: "demo", name: "web" }];
  const store = (found: Record<string, ManagedObject | undefined>) => (kind: string) => found[kind];

  it("is true while every reference it needs is on its way (no status yet, or working)", () => {
    expect(onlyWaitsForReferences(child(), web, store({ Network: working }))).toBe(true);
    expect(onlyWaitsForReferences(child(), web, store({ Network: parent([]) }))).toBe(true);
    expect(onlyWaitsForReferences(child(), two, store({ Network: ready, Deployment: working }))).toBe(true);
  });

  it("is false when its reconcile has something to do or say now", () => {
    // Every reference Ready: it creates.
    expect(onlyWaitsForReferences(child(), web, store({ Network: ready }))).toBe(false);
    expect(onlyWaitsForReferences(child(), [], store({}))).toBe(false);
    // A reference missing, stalled or being deleted: it says so.
    expect(onlyWaitsForReferences(child(), web, store({}))).toBe(false);
    const broken = parent(stalled("InvalidSpec", "spec.cidrBlock: not a CIDR"));
    expect(onlyWaitsForReferences(child(), two, store({ Network: broken, Deployment: working }))).toBe(false);
    const going = parent([cond("Ready", "False", "Creating")], { deleting: true });
    expect(onlyWaitsForReferences(child(), web, store({ Network: going }))).toBe(false);
    // Recorded before, paused or being deleted itself.
    const recorded = child({}, [cond("Ready", "False", "DependencyNotReady")]);
    expect(onlyWaitsForReferences(recorded, web, store({ Network: working }))).toBe(false);
    const paused = child({ annotations: { "cloud.svc.io/paused": "true" } });
    expect(onlyWaitsForReferences(paused, web, store({ Network: working }))).toBe(false);
    expect(onlyWaitsForReferences(child({ deletionTimestamp: T }), web, store({ Network: working }))).toBe(
      false,
    );
  });
});
