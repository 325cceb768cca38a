import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import type { AuditBatch } from "../audit/index.ts";
import { detailText } from "../audit/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import {
  Annotation,
  getCondition,
  type KeySourceSpec,
  KeySources,
  keySourceOf,
  keySourceSchema,
  managedSpec,
  type SourceData,
} from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { ManagedReconciler } from "./reconciler.ts";

/** A toy service holding one text per object. */
class Service {
  readonly objects = new Map<string, { href: string; name: string; text: string }>();
  readonly calls: string[] = [];
  create(name: string, text: string) {
    const href = `/api/files/${this.objects.size + 1}`;
    this.calls.push(`create ${href}`);
    this.objects.set(href, { href, name, text });
    return href;
  }
}

type S = { contentFrom: KeySourceSpec };
type D = { name: string; text?: string };
type O = { href: string; name: string; text: string };

const fileKind: ManagedKind<S, D, O, Service> = {
  kind: "File",
  plural: "files",
  singular: "file",
  shortNames: [],
  description: "test",
  schema: managedSpec({ contentFrom: keySourceSchema("the text") }) as never,
  references: () => [],
  keySources: (s) => [keySourceOf("contentFrom", s.contentFrom)],
  desired: (_s, ctx) => ({ name: ctx.meta.name, text: ctx.sources?.contentFrom?.toString() }),
  observe: async (c, href) => c.objects.get(href),
  lookup: async () => [],
  hrefOf: (o) => o.href,
  create: async (c, d) => c.create(d.name, d.text!),
  update: async (c, href, d) => {
    c.calls.push(`update ${href}`);
    c.objects.get(href)!.text = d.text!;
  },
  delete: async () => {},
  diff: (d, o) =>
    d.text !== undefined && d.text !== o.text
      ? [{ field: "contentFrom", desired: d.text, observed: o.text }]
      : [],
  atProvider: (o) => ({ name: o.name }),
};

const NS = "team-a";
let kube: FakeKube;
let service: Service;
let maps: Map<string, SourceData>;
let reads: string[];
let keySources: KeySources;
let batches: AuditBatch[];
let events: string[];
let reconciler: ManagedReconciler;

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  maps = new Map();
  reads = [];
  batches = [];
  events = [];
  keySources = new KeySources({
    read: async (kind, ns, name) => {
      reads.push(`${kind}/${ns}/${name}`);
      return maps.get(name);
    },
    enqueue: () => {},
    log: pino({ level: "silent" }),
  });
  reconciler = new ManagedReconciler(fileKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: { emit: (_o, _k, _t, reason) => void events.push(reason) },
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
    keySources,
    dependencyRetryMs: 777,
    audit: {
      submit: (b) => void batches.push(b),
      written: async (b) => void batches.push(b),
      beforeDelete: async () => {},
    },
  });
});

const apply = (spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  kube.put("File", { metadata: { name: "f", namespace: NS, annotations }, spec });
const fromMap = { contentFrom: { configMapKeyRef: { name: "texts", key: "a.txt" } } };
const ready = () => getCondition(kube.get("File", NS, "f")?.status?.conditions, "Ready");
const setMap = (text: string, rv: string) =>
  maps.set("texts", { resourceVersion: rv, data: { "a.txt": Buffer.from(text) } });

describe("the reconciler reads the keys a spec names (key-sources.ts)", () => {
  it("waits naming the field while the ConfigMap is missing, calling nothing; creates with its value once it is there", async () => {
    apply(fromMap);
    expect(await reconciler.reconcile(NS, "f")).toMatchObject({ outcome: "waiting", requeueAfterMs: 777 });
    expect(ready()).toMatchObject({
      status: "False",
      reason: "ConfigMapNotFound",
      message: "spec.contentFrom.configMapKeyRef.name: ConfigMap texts not found in namespace team-a",
    });
    expect(service.calls).toEqual([]);

    setMap("top secret text", "2");
    await reconciler.reconcile(NS, "f");
    expect(ready()?.status).toBe("True");
    expect([...service.objects.values()].map((o) => o.text)).toEqual(["top secret text"]);
  });

  it("a changed source is an update, not drift (the service did not change)", async () => {
    setMap("one", "2");
    apply(fromMap);
    await reconciler.reconcile(NS, "f");
    setMap("two", "3");
    await reconciler.reconcile(NS, "f");
    // A create says itself in status and the audit trail (no Event); the change is an update.
    expect(events).toEqual(["Updated"]);
  });

  it("the value never reaches status or the audit trail: the field is masked", async () => {
    setMap("top secret text", "2");
    apply(fromMap);
    await reconciler.reconcile(NS, "f");
    setMap("more secret text", "3");
    await reconciler.reconcile(NS, "f");
    expect(service.calls).toEqual(["create /api/files/1", "update /api/files/1"]);
    expect(JSON.stringify(kube.get("File", NS, "f")?.status)).not.toMatch(/secret text/);
    const text = batches.map((b) => detailText({ ...b.context, identity: "op" }, b.changes)).join("");
    expect(text).toMatch(/contentFrom: \*\*\* -> \*\*\*/);
    expect(text).not.toMatch(/secret text/);
  });

  it("an ObserveOnly resource reads nothing", async () => {
    service.objects.set("/api/files/7", { href: "/api/files/7", name: "f", text: "x" });
    apply({ ...fromMap, managementPolicy: "ObserveOnly" }, { [Annotation.href]: "/api/files/7" });
    await reconciler.reconcile(NS, "f");
    expect(ready()?.status).toBe("True");
    expect(reads).toEqual([]);
  });

  it("forgets what a resource read once it is gone", async () => {
    setMap("t", "2");
    apply(fromMap);
    await reconciler.reconcile(NS, "f");
    expect(keySources.size).toBe(1);
    kube.objects.clear();
    await reconciler.reconcile(NS, "f");
    expect(keySources.size).toBe(0);
  });
});
