import pino from "pino";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { callsGoAhead } from "../../api/index.ts";
import { OwnerIndex, ReferenceIndex } from "../indexes/index.ts";
import type { ManagedKind } from "../sdk/index.ts";
import {
  Annotation,
  DependencyNotReadyError,
  FINALIZER,
  getCondition,
  hrefLinks,
  managedSpec,
} from "../sdk/index.ts";
import { FakeClock, FakeKube } from "../testing/index.ts";
import { LinkCheck } from "./link-check.ts";
import { ManagedReconciler } from "./reconciler.ts";

/** A service that knows some hrefs, counting existence checks and creates. */
class Service {
  readonly known = new Set<string>(["/api/clouds/1", "/api/servers/1"]);
  readonly calls: string[] = [];
  /** Whether each check went ahead of others waiting for a connection (connection-gate.ts). */
  readonly ahead: boolean[] = [];
  failWith: Error | undefined;
  objects = new Map<string, { href: string; name: string }>();

  async exists(href: string): Promise<boolean> {
    this.calls.push(`exists ${href}`);
    this.ahead.push(callsGoAhead());
    if (this.failWith) throw this.failWith;
    return this.known.has(href);
  }
}

describe("LinkCheck", () => {
  it("an href found to exist is remembered per account: a cache hit costs no call", async () => {
    const service = new Service();
    const check = new LinkCheck();
    const links = [{ field: "cloudHref", href: "/api/clouds/1" }];
    for (let i = 0; i < 1000; i++) await check.require("ns/default", service, links);
    expect(service.calls).toEqual(["exists /api/clouds/1"]);
    // Every resource linking to it waits on that call: it goes ahead of the others.
    expect(service.ahead).toEqual([true]);
    // Another account does not share what the first found.
    await check.require("other/default", service, links);
    expect(service.calls).toHaveLength(2);
  });

  it("concurrent checks of one href share one call", async () => {
    const service = new Service();
    const check = new LinkCheck();
    const links = [{ field: "cloudHref", href: "/api/clouds/1" }];
    await Promise.all(Array.from({ length: 50 }, () => check.require("ns/default", service, links)));
    expect(service.calls).toEqual(["exists /api/clouds/1"]);
  });

  it("a missing href waits, naming each missing field and href, and is asked again next time", async () => {
    const service = new Service();
    const check = new LinkCheck();
    const links = [
      { field: "storageHref", href: "/api/clouds/1/volumes/9" },
      { field: "cloudHref", href: "/api/clouds/1" },
      { field: "runnableHref", href: "/api/servers/999999" },
    ];
    const error = await check.require("ns/default", service, links, 30_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as DependencyNotReadyError).message).toBe(
      "spec.storageHref: /api/clouds/1/volumes/9 does not exist in the service; " +
        "spec.runnableHref: /api/servers/999999 does not exist in the service",
    );
    expect((error as DependencyNotReadyError).retryAfterMs).toBe(30_000);
    // Created meanwhile: the next check asks again (missing hrefs are not remembered).
    service.known.add("/api/servers/999999");
    service.known.add("/api/clouds/1/volumes/9");
    service.calls.length = 0;
    await check.require("ns/default", service, links);
    expect(service.calls.sort()).toEqual(["exists /api/clouds/1/volumes/9", "exists /api/servers/999999"]);
  });

  it("forgets an href after the TTL and keeps at most maxEntries (least recently used first)", async () => {
    const service = new Service();
    let now = 0;
    const check = new LinkCheck({ now: () => now, ttlMs: 1000, maxEntries: 2 });
    const link = (href: string) => [{ field: "x", href }];
    service.known.add("/a");
    service.known.add("/b");
    service.known.add("/c");
    await check.require("n/a", service, link("/a"));
    now = 1500;
    await check.require("n/a", service, link("/a"));
    expect(service.calls).toEqual(["exists /a", "exists /a"]);
    await check.require("n/a", service, link("/b"));
    await check.require("n/a", service, link("/a")); // a is now the most recently used
    await check.require("n/a", service, link("/c")); // evicts b
    expect(check.size).toBe(2);
    service.calls.length = 0;
    await check.require("n/a", service, link("/a"));
    await check.require("n/a", service, link("/b"));
    expect(service.calls).toEqual(["exists /b"]);
  });

  it("other failures propagate and are not remembered", async () => {
    const service = new Service();
    const check = new LinkCheck();
    service.failWith = new Error("503");
    const links = [{ field: "cloudHref", href: "/api/clouds/1" }];
    await expect(check.require("ns/default", service, links)).rejects.toThrow("503");
    service.failWith = undefined;
    await check.require("ns/default", service, links);
    expect(service.calls).toHaveLength(2);
  });

  it("no links cost nothing; a client without exists is a programming error", async () => {
    const check = new LinkCheck();
    await check.require("ns/default", {}, []);
    await expect(check.require("ns/default", {}, [{ field: "x", href: "/y" }])).rejects.toThrow(
      /no exists\(href\)/,
    );
  });
});

type Spec = { runnableHref: string; cloudHref: string };
type Desired = { runnableHref: string };
type Observed = { href: string; name: string };

const gadgetKind: ManagedKind<Spec, Desired, Observed, Service> = {
  kind: "Gadget",
  plural: "gadgets",
  singular: "gadget",
  shortNames: ["gdg"],
  description: "test",
  schema: managedSpec({ runnableHref: z.string(), cloudHref: z.string() }) as never,
  references: () => [],
  links: (s) => [
    { field: "cloudHref", href: s.cloudHref },
    { field: "runnableHref", href: s.runnableHref },
  ],
  desired: (s) => ({ runnableHref: s.runnableHref }),
  observe: async (c, href) => {
    c.calls.push(`show ${href}`);
    return c.objects.get(href);
  },
  lookup: async () => [],
  hrefOf: (o) => o.href,
  create: async (c) => {
    c.calls.push("create");
    const href = `/api/gadgets/${c.objects.size + 1}`;
    c.objects.set(href, { href, name: "g" });
    return href;
  },
  update: async () => {},
  delete: async () => {},
  diff: () => [],
  atProvider: (o) => ({ name: o.name }),
};

function setup() {
  const kube = new FakeKube();
  const service = new Service();
  const reconciler = new ManagedReconciler(gadgetKind, {
    store: kube,
    kube,
    accounts: { get: () => ({ client: service }) },
    refs: new ReferenceIndex(),
    owners: new OwnerIndex(),
    events: { emit: () => {} },
    clock: new FakeClock(),
    log: pino({ level: "silent" }),
    dependencyRetryMs: 45_000,
  });
  const apply = (name: string, spec: Spec) =>
    kube.put("Gadget", {
      metadata: { name, namespace: "ns" },
      spec: spec as unknown as Record<string, unknown>,
    });
  return { kube, service, reconciler, apply };
}

describe("ManagedReconciler: links checked before a create", () => {
  it("a missing link is DependencyNotReady naming the field and href; no create, no create-pending", async () => {
    const { kube, service, reconciler, apply } = setup();
    apply("g", { cloudHref: "/api/clouds/1", runnableHref: "/api/servers/999999" });
    const result = await reconciler.reconcile("ns", "g");
    expect(result).toMatchObject({ outcome: "waiting", requeueAfterMs: 45_000 });
    const obj = kube.get("Gadget", "ns", "g")!;
    expect(getCondition(obj.status?.conditions, "Ready")).toMatchObject({
      status: "False",
      reason: "DependencyNotReady",
      message: "spec.runnableHref: /api/servers/999999 does not exist in the service",
    });
    expect(getCondition(obj.status?.conditions, "Stalled")?.status).toBe("False");
    expect(service.calls).not.toContain("create");
    expect(obj.metadata.annotations?.[Annotation.createPending]).toBeUndefined();
    expect(obj.metadata.finalizers ?? []).not.toContain(FINALIZER);

    // The server appears: the retry creates; the cloud found earlier is not asked again.
    service.known.add("/api/servers/999999");
    service.calls.length = 0;
    expect(await reconciler.reconcile("ns", "g")).toMatchObject({ outcome: "ready" });
    expect(service.calls).toEqual(["exists /api/servers/999999", "create", "show /api/gadgets/1"]);
  });

  it("links are not checked on reconciles of an existing object, and are shared across objects", async () => {
    const { service, reconciler, apply } = setup();
    apply("a", { cloudHref: "/api/clouds/1", runnableHref: "/api/servers/1" });
    apply("b", { cloudHref: "/api/clouds/1", runnableHref: "/api/servers/1" });
    await reconciler.reconcile("ns", "a");
    await reconciler.reconcile("ns", "b");
    expect(service.calls.filter((c) => c.startsWith("exists"))).toEqual([
      "exists /api/clouds/1",
      "exists /api/servers/1",
    ]);
    service.calls.length = 0;
    service.known.clear(); // even a link gone since is not re-checked: the object exists
    await reconciler.reconcile("ns", "a");
    expect(service.calls).toEqual(["show /api/gadgets/1"]);
  });
});

describe("hrefLinks", () => {
  it("gives a link per set href field and per list item, skipping unset ones", () => {
    const spec = { a: "/api/x/1", b: undefined as string | undefined, c: ["/api/i/1", "/api/i/2"], d: 3 };
    expect(hrefLinks(spec, ["a", "b", "c"])).toEqual([
      { field: "a", href: "/api/x/1" },
      { field: "c[0]", href: "/api/i/1" },
      { field: "c[1]", href: "/api/i/2" },
    ]);
  });
});
