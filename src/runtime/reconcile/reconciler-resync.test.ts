import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { Annotation, managedSpec } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

type Gadget = { href: string; label: string; secretNote: string };

/** A kind of one service object per resource whose `label` and `secretNote` anyone may change. */
function world() {
  const objects = new Map<string, Gadget>();
  const kind: ManagedKind<{ label: string; secretNote?: string }, Omit<Gadget, "href">, Gadget, unknown> = {
    kind: "Gadget",
    plural: "gadgets",
    singular: "gadget",
    shortNames: [],
    description: "test",
    schema: managedSpec({ label: z.string(), secretNote: z.string().optional() }) as never,
    references: () => [],
    desired: (s) => ({ label: s.label, secretNote: s.secretNote ?? "" }),
    observe: async (_c, href) => (objects.has(href) ? { ...objects.get(href)! } : undefined),
    lookup: async () => [],
    hrefOf: (o) => o.href,
    create: async (_c, d) => {
      const href = `/api/gadgets/${objects.size + 1}`;
      objects.set(href, { href, ...d });
      return href;
    },
    update: async (_c, href, d) => void objects.set(href, { href, ...d }),
    delete: async (_c, href) => void objects.delete(href),
    diff: (d, o) =>
      (["label", "secretNote"] as const)
        .filter((f) => d[f] !== o[f])
        .map((f) => ({ field: f, desired: d[f], observed: o[f] })),
    atProvider: (o) => ({ label: o.label }),
  };
  const kube = new FakeKube();
  const clock = new FakeClock();
  const events: { reason: string; type: string; message: string }[] = [];
  const reconciler = new ManagedReconciler(kind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: {} }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: { emit: (_o, _k, type, reason, message) => events.push({ type, reason, message }) },
    clock,
    log: pino({ level: "silent" }),
  });
  const apply = (spec: object, annotations: Record<string, string> = {}) => {
    const old = kube.get("Gadget", "ns", "g")?.metadata;
    kube.put("Gadget", {
      metadata: { ...old, name: "g", namespace: "ns", annotations: { ...old?.annotations, ...annotations } },
      spec,
    });
  };
  const status = () => kube.get("Gadget", "ns", "g")?.status;
  return { objects, reconciler, apply, status, events, clock };
}

describe("the cloud.svc.io/resync-interval annotation", () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => {
    w = world();
  });

  it("re-queues a Ready object after its own period", async () => {
    w.apply({ label: "a" }, { [Annotation.resyncInterval]: "2m" });
    await w.reconciler.reconcile("ns", "g");
    const result = await w.reconciler.reconcile("ns", "g");
    expect(result).toMatchObject({ outcome: "ready", requeueAfterMs: 120_000 });
  });

  it("without the annotation, leaves drift to the operator-wide resync", async () => {
    w.apply({ label: "a" });
    await w.reconciler.reconcile("ns", "g");
    expect((await w.reconciler.reconcile("ns", "g")).requeueAfterMs).toBeUndefined();
  });

  it.each([
    ["10s", '"10s" is shorter than the minimum of 30s'],
    ["often", '"often" is not a Go duration such as 90s, 5m or 1h30m'],
  ])(
    "a bad value (%s) is a Warning event naming the rule, and the default period",
    async (value, problem) => {
      w.apply({ label: "a" }, { [Annotation.resyncInterval]: value });
      const result = await w.reconciler.reconcile("ns", "g");
      expect(result.requeueAfterMs).toBeUndefined();
      expect(w.events).toContainEqual({
        type: "Warning",
        reason: "ResyncIntervalInvalid",
        message: `cloud.svc.io/resync-interval: ${problem}; using the operator's resync period`,
      });
    },
  );
});

describe("status.lastDrift", () => {
  it("records when a correction of drift happened and the service's values, secrets masked", async () => {
    const w = world();
    w.apply({ label: "a", secretNote: "x" });
    await w.reconciler.reconcile("ns", "g");
    expect(w.status()?.lastDrift).toBeUndefined();
    w.objects.set("/api/gadgets/1", { href: "/api/gadgets/1", label: "changed by hand", secretNote: "y" });
    w.clock.advance(5_000);
    await w.reconciler.reconcile("ns", "g");
    expect(w.events.at(-1)?.reason).toBe("DriftCorrected");
    expect(w.status()?.lastDrift).toEqual({
      time: new Date(w.clock.now()).toISOString(),
      fields: [
        { field: "label", service: '"changed by hand"' },
        { field: "secretNote", service: "***" },
      ],
    });
    expect(w.objects.get("/api/gadgets/1")?.label).toBe("a");
  });

  it("is not written by an update the spec asked for", async () => {
    const w = world();
    w.apply({ label: "a" });
    await w.reconciler.reconcile("ns", "g");
    w.apply({ label: "b" });
    await w.reconciler.reconcile("ns", "g");
    expect(w.events.at(-1)?.reason).toBe("Updated");
    expect(w.status()?.lastDrift).toBeUndefined();
  });
});
