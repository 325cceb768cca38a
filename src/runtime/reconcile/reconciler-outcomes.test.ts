import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import type { EventSink } from "../client/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import { Annotation, getCondition, managedSpec } from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/**
 * What a reconcile ends with, as conditions and events: warnings of a kind (Ready, FieldsIgnored,
 * one Warning event per change), a create the service refuses for good, and a create's own href
 * read back from a cache that has not caught up (no adoption).
 */

type Gadget = { href: string; name: string; options: string[] };
type Desired = { name: string; options: Record<string, string> };

class Refused extends Error {}

class GadgetService {
  readonly objects = new Map<string, Gadget>();
  readonly calls: string[] = [];
  refuseCreate = false;
  next = 1;
  create(name: string): string {
    this.calls.push(`create ${name}`);
    if (this.refuseCreate) throw new Refused("422: name: already exists");
    const href = `/api/gadgets/${this.next++}`;
    // Like a new deployment: it has no options of its own, whatever the spec asks.
    this.objects.set(href, { href, name, options: ["known"] });
    return href;
  }
}

const gadgetKind: ManagedKind<
  { name?: string; options: Record<string, string> },
  Desired,
  Gadget,
  GadgetService
> = {
  kind: "Gadget",
  plural: "gadgets",
  singular: "gadget",
  shortNames: ["gdg"],
  description: "test",
  schema: managedSpec({
    name: z.string().optional(),
    options: z.record(z.string(), z.string()).default({}),
  }) as never,
  references: () => [],
  desired: (s, ctx) => ({ name: s.name ?? ctx.meta.name, options: s.options }),
  observe: async (c, href) => c.objects.get(href),
  lookup: async (c, d) => [...c.objects.values()].filter((g) => g.name === d.name),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create(d.name),
  update: async () => {},
  delete: async (c, href) => void c.objects.delete(href),
  diff: () => [],
  warnings: (d, o) => {
    const ignored = Object.keys(d.options).filter((n) => !o.options.includes(n));
    return ignored.length > 0 ? [`spec.options: ${ignored.join(", ")} ignored by the service`] : [];
  },
  atProvider: (o) => ({ name: o.name }),
};

const NS = "team-a";
let kube: FakeKube;
let service: GadgetService;
let events: { type: string; reason: string; message: string }[];
let reconciler: ManagedReconciler;

beforeEach(() => {
  kube = new FakeKube();
  service = new GadgetService();
  events = [];
  const sink: EventSink = { emit: (_o, _k, type, reason, message) => events.push({ type, reason, message }) };
  reconciler = new ManagedReconciler(gadgetKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: sink,
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
    isTerminalApiError: (e) => e instanceof Refused,
  });
});

function apply(spec: Record<string, unknown>): void {
  const old = kube.get("Gadget", NS, "g");
  kube.put("Gadget", { metadata: { ...(old?.metadata ?? {}), name: "g", namespace: NS }, spec });
}
const obj = () => kube.get("Gadget", NS, "g")!;
const cond = (type: string) => getCondition(obj().status?.conditions, type);

describe("warnings: parts of the spec the service ignores", () => {
  const steps: {
    reason: string;
    options: Record<string, string>;
    ready: { reason: string; message: string };
    events: { type: string; reason: string; message: string }[];
  }[] = [
    {
      reason:
        "created with an option the service ignores: Ready (nothing a retry would change), named, one Warning",
      options: { known: "a", typo: "b" },
      ready: { reason: "FieldsIgnored", message: "spec.options: typo ignored by the service" },
      events: [
        { type: "Warning", reason: "FieldsIgnored", message: "spec.options: typo ignored by the service" },
      ],
    },
    {
      reason: "reconciled again unchanged: the same state, no second event",
      options: { known: "a", typo: "b" },
      ready: { reason: "FieldsIgnored", message: "spec.options: typo ignored by the service" },
      events: [],
    },
    {
      reason: "another ignored option: a new state, a new Warning",
      options: { known: "a", typo: "b", other: "c" },
      ready: { reason: "FieldsIgnored", message: "spec.options: typo, other ignored by the service" },
      events: [
        {
          type: "Warning",
          reason: "FieldsIgnored",
          message: "spec.options: typo, other ignored by the service",
        },
      ],
    },
    {
      reason: "fixed: Available again, without an event",
      options: { known: "a" },
      ready: { reason: "Available", message: "" },
      events: [],
    },
  ];
  it("follows the spec through its changes", async () => {
    for (const step of steps) {
      events.length = 0;
      apply({ options: step.options });
      await reconciler.reconcile(NS, "g");
      expect(cond("Ready"), step.reason).toMatchObject({ status: "True", ...step.ready });
      expect(cond("Synced"), step.reason).toMatchObject({ status: "True", reason: "ReconcileSuccess" });
      expect(cond("Reconciling"), step.reason).toMatchObject({ status: "False", reason: "Idle" });
      expect(events, step.reason).toEqual(step.events);
    }
  });
});

describe("a create the service refuses for good", () => {
  it("is Stalled with the service's words and leaves no create-pending behind to adopt a namesake later", async () => {
    service.objects.set("/api/gadgets/99", { href: "/api/gadgets/99", name: "g", options: [] });
    service.refuseCreate = true;
    apply({});
    // Not adopted the first time: the kind does not adopt, and no create was pending.
    await reconciler.reconcile(NS, "g");
    expect(cond("Stalled")).toMatchObject({
      status: "True",
      reason: "ApiError",
      message: "422: name: already exists",
    });
    expect(cond("Reconciling")).toMatchObject({ status: "False", reason: "Idle" });
    expect(obj().metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    // Reconciled again (a requested reconcile, a restart): still the refusal, never the namesake.
    apply({ name: undefined });
    await reconciler.reconcile(NS, "g");
    expect(obj().status?.href).toBeUndefined();
    expect(service.calls).toEqual(["create g", "create g"]);
    expect(events.map((e) => e.reason)).toEqual(["Stalled"]);
  });
});

describe("a create's own href, read back from a cache that has not caught up", () => {
  it("is not an adoption: no Adopted event, no lookup", async () => {
    apply({});
    await reconciler.reconcile(NS, "g");
    // A create emits no Event (status and the audit trail say it: one Kubernetes write fewer).
    expect(events).toEqual([]);
    // The cache as the informer may show it between the two writes: the annotation, not the status.
    const o = obj();
    kube.put("Gadget", { ...o, status: { ...o.status, href: undefined, conditions: [] } });
    events.length = 0;
    await reconciler.reconcile(NS, "g");
    expect(events).toEqual([]);
    expect(obj().status?.href).toBe("/api/gadgets/1");
    // Before the annotation too (create-pending still shown): the href is known, nothing is looked up.
    kube.put("Gadget", {
      ...o,
      metadata: { ...o.metadata, annotations: { [Annotation.createPending]: "2026-01-01T00:00:00Z" } },
      status: {},
    });
    events.length = 0;
    await reconciler.reconcile(NS, "g");
    expect(events).toEqual([]);
    expect(obj().metadata.annotations?.[Annotation.href]).toBe("/api/gadgets/1");
    expect(service.calls).toEqual(["create g"]);
  });

  it("a new object of the same name is not the one that created it", async () => {
    apply({});
    await reconciler.reconcile(NS, "g");
    // Deleted with deletionPolicy Orphan and created again before its old key was reconciled away.
    kube.objects.delete(`Gadget/${NS}/g`);
    kube.put("Gadget", { metadata: { name: "g", namespace: NS, uid: "another-uid" }, spec: {} });
    events.length = 0;
    await reconciler.reconcile(NS, "g");
    expect(obj().status?.href).toBe("/api/gadgets/2");
    // Created anew, not adopted: no Adopted event (and a create emits none).
    expect(events).toEqual([]);
  });

  it("an href set by hand that status does not know is still an adoption", async () => {
    service.objects.set("/api/gadgets/7", { href: "/api/gadgets/7", name: "g", options: [] });
    kube.put("Gadget", {
      metadata: { name: "g", namespace: NS, annotations: { [Annotation.href]: "/api/gadgets/7" } },
      spec: {},
    });
    await reconciler.reconcile(NS, "g");
    expect(events.map((e) => e.reason)).toEqual(["Adopted"]);
    expect(service.calls).toEqual([]);
  });
});
