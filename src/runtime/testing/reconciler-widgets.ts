import pino from "pino";
import * as z from "zod";
import type { EventSink } from "../client/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import { type AccountClients, ManagedReconciler } from "../reconcile/index.ts";
import type { ManagedKind, ManagedObject } from "../sdk/index.ts";
import { getCondition, managedSpec, objectKey, ref } from "../sdk/index.ts";
import { FakeClock } from "./fake-clock.ts";
import { FakeKube } from "./fake-kube.ts";

// The Widget kind over a toy service, shared by the reconciler tests that drive one Widget
// through its life. The world is module state (live bindings), rebuilt by setUpWidgets() before
// each test, so the tests read as they would with it declared in their own file.

/** A toy service holding widgets, counting every call. */
export class WidgetService {
  readonly objects = new Map<string, { href: string; name: string; size: number; color: string }>();
  readonly calls: string[] = [];
  next = 1;
  failNext: { op: string; error: Error; commit?: boolean } | undefined;
  onCreate?: () => void;

  private maybeFail(op: string, commit: () => void = () => {}): void {
    if (this.failNext?.op === op) {
      const f = this.failNext;
      this.failNext = undefined;
      if (f.commit) commit();
      throw f.error;
    }
  }
  show(href: string) {
    this.calls.push(`show ${href}`);
    this.maybeFail("show");
    const o = this.objects.get(href);
    return o ? { ...o } : undefined;
  }
  list(name?: string) {
    this.calls.push(`index${name ? ` ${name}` : ""}`);
    return [...this.objects.values()]
      .filter((o) => name === undefined || o.name === name)
      .map((o) => ({ ...o }));
  }
  create(d: { name: string; size: number; color: string }) {
    this.calls.push(`create ${d.name}`);
    this.onCreate?.();
    const href = `/api/widgets/${this.next++}`;
    const commit = () => this.objects.set(href, { href, ...d });
    this.maybeFail("create", commit);
    commit();
    return href;
  }
  update(href: string, fields: Record<string, unknown>) {
    this.calls.push(`update ${href} ${Object.keys(fields).join(",")}`);
    this.maybeFail("update");
    Object.assign(this.objects.get(href)!, fields);
  }
  destroy(href: string) {
    this.calls.push(`destroy ${href}`);
    this.objects.delete(href);
  }
}

export type Desired = { name: string; size: number; color: string; partHref?: string };
export type Observed = { href: string; name: string; size: number; color: string };

export const widgetKind: ManagedKind<
  { name?: string; size: number; color: string; partRef?: { name: string } },
  Desired,
  Observed,
  WidgetService
> = {
  kind: "Widget",
  plural: "widgets",
  singular: "widget",
  shortNames: ["wdg"],
  description: "test",
  schema: managedSpec({
    name: z.string().optional(),
    size: z.number().int().min(1),
    color: z.enum(["red", "blue"]).default("red"),
    partRef: ref("Widget").optional(),
  }) as never,
  references: (s) => (s.partRef ? [{ field: "partRef", kind: "Widget", name: s.partRef.name }] : []),
  desired: (s, ctx) => ({
    name: s.name ?? ctx.meta.name,
    size: s.size,
    color: s.color,
    partHref: ctx.refs.partRef?.href,
  }),
  observe: async (c, href) => c.show(href),
  lookup: async (c, d) => c.list(d.name),
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create({ name: d.name, size: d.size, color: d.color }),
  update: async (c, href, d, _o, diff) => {
    const fields: Record<string, unknown> = {};
    for (const f of diff) fields[f.field] = d[f.field as keyof Desired];
    c.update(href, fields);
  },
  delete: async (c, href) => c.destroy(href),
  diff: (d, o) =>
    (["name", "size", "color"] as const)
      .filter((f) => d[f] !== o[f])
      .map((f) => ({ field: f, desired: d[f], observed: o[f] })),
  immutable: ["size"],
  atProvider: (o) => ({ name: o.name, size: o.size, color: o.color }),
};

export class ApiLikeError extends Error {
  readonly kind: string;
  constructor(message: string, kind: string) {
    super(message);
    this.kind = kind;
  }
}

export let kube: FakeKube;
export let service: WidgetService;
export let events: { reason: string; type: string; message: string }[];
export let reconciler: ManagedReconciler;
export let refs: ReferenceIndex;
export let owners: OwnerIndex;
export let clock: FakeClock;
export const NS = "team-a";

/** What the Account's client is like now (the failure tests change it; ready by default). */
export interface AccountState {
  ready: boolean;
  pending: boolean;
}

/** A fresh world: call in beforeEach. */
export function setUpWidgets(account: () => AccountState = () => ({ ready: true, pending: false })): void {
  kube = new FakeKube();
  service = new WidgetService();
  events = [];
  refs = new ReferenceIndex();
  owners = new OwnerIndex();
  // The owner index fed as the operator's informer handlers feed it.
  kube.onChange = (kind, o, old) => {
    if (o) owners.set(kind, o);
    else if (old) owners.remove(objectKey(kind, old.metadata.namespace, old.metadata.name));
  };
  clock = new FakeClock();
  const sink: EventSink = { emit: (_o, _k, type, reason, message) => events.push({ type, reason, message }) };
  const accounts: AccountClients = {
    get: () =>
      account().pending
        ? { notReady: "credentials not verified yet", pending: true }
        : account().ready
          ? { client: service }
          : { notReady: "credentials rejected" },
  };
  reconciler = new ManagedReconciler(widgetKind, {
    store: kube,
    kube,
    accounts,
    refs,
    owners,
    events: sink,
    clock,
    log: pino({ level: "silent" }),
    isTerminalApiError: (e) => e instanceof ApiLikeError && e.kind === "invalid",
    isOutcomeUnknown: (e) => e instanceof ApiLikeError && e.kind === "outcomeUnknown",
  });
}

export function apply(
  name: string,
  spec: Record<string, unknown>,
  metadata: Partial<ManagedObject["metadata"]> = {},
): void {
  const old = kube.get("Widget", NS, name);
  kube.put("Widget", {
    metadata: { ...(old?.metadata ?? {}), name, namespace: NS, ...metadata },
    spec,
  });
}

export function obj(name = "w") {
  return kube.get("Widget", NS, name)!;
}
export function cond(type: string, name = "w") {
  return getCondition(obj(name).status?.conditions, type);
}
