import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LuaFactory } from "wasmoon";
import { crdSources } from "../../src/kinds/index.ts";
import {
  Annotation,
  type Condition,
  conditionsFor,
  kstatus,
  type Outcome,
  Reason,
} from "../../src/runtime/sdk/index.ts";
import { parseYamlFile } from "./render.ts";

const ARGOCD = join(import.meta.dirname, "..", "..", "deploy", "argocd");
const FLUX = join(import.meta.dirname, "..", "..", "deploy", "flux");
const HEALTH = readFileSync(join(ARGOCD, "health.lua"), "utf8");

interface Obj {
  metadata: {
    name: string;
    generation: number;
    deletionTimestamp?: string;
    annotations?: Record<string, string>;
  };
  status?: { observedGeneration?: number; conditions?: Condition[] };
}

/**
 * The life of one resource, each status produced by the runtime's own condition logic
 * (outcome.ts, the one place the reconciler turns results into conditions).
 */
function phases(): { phase: string; obj: Obj; kstatus: string; argo: string }[] {
  let now = Date.parse("2026-01-01T00:00:00Z");
  let conditions: Condition[] = [];
  const apply = (outcome: Outcome, generation: number) => {
    now += 1000;
    conditions = conditionsFor(outcome, conditions, generation, new Date(now));
    return structuredClone(conditions);
  };
  const obj = (
    generation: number,
    observed: number | undefined,
    c: Condition[] | undefined,
    extra: Partial<Obj["metadata"]> = {},
  ): Obj => ({
    metadata: { name: "web", generation, ...extra },
    ...(c ? { status: { observedGeneration: observed, conditions: c } } : {}),
  });
  const ready: Outcome = { type: "ready", reason: Reason.Available, message: "" };
  return [
    {
      phase: "just applied, no status yet",
      obj: obj(1, undefined, undefined),
      kstatus: "InProgress",
      argo: "Progressing",
    },
    {
      phase: "waiting for a dependency",
      obj: obj(
        1,
        1,
        apply(
          {
            type: "waiting",
            reason: Reason.DependencyNotReady,
            message: "Network main is not Ready",
            requeueAfterMs: 1000,
          },
          1,
        ),
      ),
      kstatus: "InProgress",
      argo: "Progressing",
    },
    {
      phase: "creating",
      obj: obj(
        1,
        1,
        apply({ type: "progressing", reason: Reason.Creating, message: "creating", requeueAfterMs: 1000 }, 1),
      ),
      kstatus: "InProgress",
      argo: "Progressing",
    },
    {
      phase: "a transient API error before Ready",
      obj: obj(
        1,
        1,
        apply({ type: "error", reason: Reason.ApiError, message: "503 Service Unavailable" }, 1),
      ),
      kstatus: "InProgress",
      argo: "Degraded",
    },
    { phase: "ready", obj: obj(1, 1, apply(ready, 1)), kstatus: "Current", argo: "Healthy" },
    {
      phase: "spec changed, not yet observed",
      obj: obj(2, 1, structuredClone(conditions)),
      kstatus: "InProgress",
      argo: "Progressing",
    },
    {
      phase: "updating",
      obj: obj(
        2,
        2,
        apply({ type: "progressing", reason: Reason.Updating, message: "updating", requeueAfterMs: 1000 }, 2),
      ),
      kstatus: "InProgress",
      argo: "Progressing",
    },
    { phase: "ready again", obj: obj(2, 2, apply(ready, 2)), kstatus: "Current", argo: "Healthy" },
    {
      phase: "a transient API error while Ready (retrying)",
      obj: obj(2, 2, apply({ type: "error", reason: Reason.ApiError, message: "429 Too Many Requests" }, 2)),
      kstatus: "InProgress",
      argo: "Degraded",
    },
    {
      phase: "stalled on an invalid spec",
      obj: obj(
        3,
        3,
        apply({ type: "terminal", reason: Reason.InvalidSpec, message: "spec.cidrBlock: must be a CIDR" }, 3),
      ),
      kstatus: "Failed",
      argo: "Degraded",
    },
    { phase: "fixed and ready", obj: obj(4, 4, apply(ready, 4)), kstatus: "Current", argo: "Healthy" },
    {
      phase: "paused",
      obj: obj(4, 4, apply({ type: "paused" }, 4), { annotations: { [Annotation.paused]: "true" } }),
      kstatus: "Current",
      argo: "Suspended",
    },
    {
      phase: "deleting",
      obj: obj(
        4,
        4,
        apply({ type: "progressing", reason: Reason.Deleting, message: "deleting", requeueAfterMs: 1000 }, 4),
        {
          deletionTimestamp: "2026-01-01T01:00:00Z",
        },
      ),
      kstatus: "Terminating",
      argo: "Progressing",
    },
  ];
}

/**
 * kstatus as sigs.k8s.io/cli-utils computes it for a custom resource (written here
 * independently of src/runtime): deletion, then a stale observedGeneration, then
 * Reconciling=True (InProgress) and Stalled=True (Failed); nothing else is read.
 */
function cliUtilsKstatus(o: Obj): string {
  if (o.metadata.deletionTimestamp) return "Terminating";
  const observed = o.status?.observedGeneration;
  if (observed !== undefined && observed !== o.metadata.generation) return "InProgress";
  const c = (type: string) => o.status?.conditions?.find((x) => x.type === type)?.status === "True";
  if (c("Reconciling")) return "InProgress";
  if (c("Stalled")) return "Failed";
  return "Current";
}

describe("kstatus: the operator's status in each phase of a resource's life", () => {
  for (const p of phases()) {
    it(`${p.phase}: ${p.kstatus}`, () => {
      expect(kstatus(p.obj)).toBe(p.kstatus);
      // Every status the operator writes reads the same under cli-utils' rules alone (no Ready
      // lookup): work in progress always carries Reconciling=True, failure Stalled=True.
      if (p.obj.status) expect(cliUtilsKstatus(p.obj)).toBe(p.kstatus);
      for (const c of p.obj.status?.conditions ?? [])
        expect(c.observedGeneration).toBe(p.obj.status?.observedGeneration);
    });
  }

  it("lastTransitionTime moves only when a condition's status flips", () => {
    const all = phases();
    const readyAt = (i: number) => all[i]!.obj.status?.conditions?.find((c) => c.type === "Ready");
    // "ready" -> "spec changed" -> "updating": Ready flipped True -> False at "updating".
    const i = all.findIndex((p) => p.phase === "updating");
    expect(readyAt(i)?.lastTransitionTime).not.toBe(readyAt(i - 1)?.lastTransitionTime);
    // error while Ready keeps Ready True and its time
    const j = all.findIndex((p) => p.phase === "a transient API error while Ready (retrying)");
    expect(readyAt(j)).toMatchObject({
      status: "True",
      lastTransitionTime: readyAt(j - 1)?.lastTransitionTime,
    });
  });
});

describe("Argo CD health check (Lua, run in a Lua 5.4 VM)", () => {
  const factory = new LuaFactory();
  let run: (obj: Obj) => Promise<{ status: string; message: string }>;
  const engines: { global: { close(): void } }[] = [];

  beforeAll(() => {
    run = async (obj) => {
      const lua = await factory.createEngine();
      engines.push(lua);
      lua.global.set("obj", obj);
      return (await lua.doString(HEALTH)) as { status: string; message: string };
    };
  });
  afterAll(() => {
    for (const e of engines) e.global.close();
  });

  for (const p of phases()) {
    it(`${p.phase}: ${p.argo}`, async () => {
      const hs = await run(p.obj);
      expect(hs.status).toBe(p.argo);
      expect(typeof hs.message).toBe("string");
      expect(hs.message.length).toBeGreaterThan(0);
    });
  }

  it("messages carry the reason and the operator's message", async () => {
    const stalled = phases().find((p) => p.phase.startsWith("stalled"))!;
    expect((await run(stalled.obj)).message).toBe("InvalidSpec: spec.cidrBlock: must be a CIDR");
    const stale = phases().find((p) => p.phase.startsWith("spec changed"))!;
    expect((await run(stale.obj)).message).toBe("Waiting for the operator to observe generation 2");
  });

  it("argocd-cm carries health.lua for every kind the operator serves", () => {
    const [cm] = parseYamlFile(join(ARGOCD, "argocd-cm.yaml")) as {
      metadata: { name: string };
      data: Record<string, string>;
    }[];
    expect(cm!.metadata.name).toBe("argocd-cm");
    const keys = crdSources().map((s) => `resource.customizations.health.cloud.svc.io_${s.kind}`);
    expect(Object.keys(cm!.data).sort()).toEqual(keys.sort());
    for (const key of keys) expect(cm!.data[key], key).toBe(HEALTH);
  });
});

describe("Flux example", () => {
  it("Kustomizations wait for every object (kstatus) and the operator before the team's resources", () => {
    const docs = parseYamlFile(join(FLUX, "flux-kustomization.yaml")) as {
      kind: string;
      metadata: { name: string };
      spec: { wait?: boolean; dependsOn?: { name: string }[]; path?: string; sourceRef?: { name: string } };
    }[];
    const kustomizations = docs.filter((d) => d.kind === "Kustomization");
    expect(kustomizations.length).toBeGreaterThanOrEqual(2);
    for (const k of kustomizations) expect(k.spec.wait, k.metadata.name).toBe(true);
    const sources = new Set(docs.filter((d) => d.kind === "GitRepository").map((d) => d.metadata.name));
    for (const k of kustomizations) expect(sources.has(k.spec.sourceRef!.name)).toBe(true);
    expect(kustomizations.find((k) => k.spec.path === "./deploy/operator")).toBeTruthy();
    expect(kustomizations.some((k) => k.spec.dependsOn?.some((d) => d.name === "svc-operator"))).toBe(true);
  });
});
