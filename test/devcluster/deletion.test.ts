import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, eventually, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await createCrd(h, widgetCrd());
  await h.core.createNamespace({ body: { metadata: { name: "del" } } });
});
afterAll(async () => {
  await h.cluster.close();
});

// biome-ignore lint/suspicious/noExplicitAny: responses are read as loose JSON
async function json(res: Response): Promise<any> {
  return res.json();
}

const widgets = (ns: string) => `/apis/${GROUP}/v1/namespaces/${ns}/widgets`;

function create(ns: string, name: string, metadata: Record<string, unknown> = {}) {
  return h.http(widgets(ns), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      apiVersion: `${GROUP}/v1`,
      kind: "Widget",
      metadata: { name, ...metadata },
      spec: { size: 1 },
    }),
  });
}

function patch(path: string, body: unknown) {
  return h.http(path, {
    method: "PATCH",
    headers: { "Content-Type": "application/merge-patch+json" },
    body: JSON.stringify(body),
  });
}

describe("deletion", () => {
  it("holds an object with finalizers until the last one is removed; no new finalizers meanwhile", async () => {
    await create("del", "fin", { finalizers: ["a.io/one", "b.io/two"] });
    const path = `${widgets("del")}/fin`;
    const deleting = await h.http(path, { method: "DELETE" });
    expect(deleting.status).toBe(200);
    const held = await json(deleting);
    expect(held.kind).toBe("Widget");
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(held.metadata.generation).toBe(2);
    const added = await patch(path, { metadata: { finalizers: ["a.io/one", "b.io/two", "c.io/three"] } });
    expect(added.status).toBe(422);
    expect((await json(added)).message).toBe(
      `Widget.${GROUP} "fin" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"c.io/three"}`,
    );
    const specChange = await json(await patch(path, { spec: { size: 2 } }));
    expect(specChange.metadata.deletionTimestamp).toBe(held.metadata.deletionTimestamp);
    await patch(path, { metadata: { finalizers: ["b.io/two"] } });
    expect((await h.http(path)).status).toBe(200);
    const last = await h.http(`${path}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        ...(await json(await h.http(path))),
        metadata: { ...(await json(await h.http(path))).metadata, finalizers: [] },
      }),
    });
    expect(last.status).toBe(200);
    expect((await h.http(path)).status).toBe(404);
  });

  it("answers an immediate deletion with a Success Status and checks preconditions", async () => {
    const created = await json(await create("del", "plain"));
    const wrongUid = await h.http(`${widgets("del")}/plain`, {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ preconditions: { uid: "not-it" } }),
    });
    expect(wrongUid.status).toBe(409);
    const gone = await h.http(`${widgets("del")}/plain`, { method: "DELETE" });
    expect(await json(gone)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: "plain", group: GROUP, kind: "widgets", uid: created.metadata.uid },
    });
  });

  it("garbage-collects dependents whose owners are all gone (background), keeps the others", async () => {
    const owner = await json(await create("del", "owner"));
    const other = await json(await create("del", "other-owner"));
    const ref = (o: { metadata: { name: string; uid: string } }) => ({
      apiVersion: `${GROUP}/v1`,
      kind: "Widget",
      name: o.metadata.name,
      uid: o.metadata.uid,
    });
    await create("del", "child", { ownerReferences: [ref(owner)] });
    await create("del", "shared-child", { ownerReferences: [ref(owner), ref(other)] });
    await h.core.createNamespacedConfigMap({
      namespace: "del",
      body: { metadata: { name: "child-cm", ownerReferences: [ref(owner)] }, data: { a: "b" } },
    });
    await h.http(`${widgets("del")}/owner`, { method: "DELETE" });
    await eventually(async () => (await h.http(`${widgets("del")}/child`)).status === 404);
    await eventually(async () => (await h.http("/api/v1/namespaces/del/configmaps/child-cm")).status === 404);
    const shared = await eventually(async () => {
      const body = await json(await h.http(`${widgets("del")}/shared-child`));
      return body.metadata.ownerReferences.length === 1 ? body : undefined;
    });
    expect(shared.metadata.ownerReferences[0].name).toBe("other-owner");
  });

  it("orphans dependents with propagationPolicy=Orphan", async () => {
    const owner = await json(await create("del", "orphaner"));
    await create("del", "orphan", {
      ownerReferences: [
        { apiVersion: `${GROUP}/v1`, kind: "Widget", name: "orphaner", uid: owner.metadata.uid },
      ],
    });
    await h.http(`${widgets("del")}/orphaner?propagationPolicy=Orphan`, { method: "DELETE" });
    await eventually(async () => (await h.http(`${widgets("del")}/orphaner`)).status === 404);
    const orphan = await json(await h.http(`${widgets("del")}/orphan`));
    expect(orphan.metadata.ownerReferences).toBeUndefined();
  });

  it("deletes dependents before the owner with propagationPolicy=Foreground", async () => {
    const owner = await json(await create("del", "fg-owner"));
    await create("del", "fg-child", {
      finalizers: ["x.io/slow"],
      ownerReferences: [
        { apiVersion: `${GROUP}/v1`, kind: "Widget", name: "fg-owner", uid: owner.metadata.uid },
      ],
    });
    const res = await json(
      await h.http(`${widgets("del")}/fg-owner?propagationPolicy=Foreground`, { method: "DELETE" }),
    );
    expect(res.metadata.finalizers).toContain("foregroundDeletion");
    const child = await eventually(async () => {
      const body = await json(await h.http(`${widgets("del")}/fg-child`));
      return body.metadata.deletionTimestamp ? body : undefined;
    });
    expect(child.metadata.finalizers).toEqual(["x.io/slow"]);
    expect((await h.http(`${widgets("del")}/fg-owner`)).status).toBe(200);
    await patch(`${widgets("del")}/fg-child`, { metadata: { finalizers: null } });
    await eventually(async () => (await h.http(`${widgets("del")}/fg-owner`)).status === 404);
  });

  it("a namespace always carries the kubernetes finalizer; only /finalize changes spec.finalizers", async () => {
    const bodies = [{}, { spec: { finalizers: [] } }, { spec: { finalizers: ["x.io/keep"] } }];
    const made = [];
    for (const [i, extra] of bodies.entries()) {
      const res = await h.http("/api/v1/namespaces", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ metadata: { name: `fin-${i}` }, status: { phase: "Terminating" }, ...extra }),
      });
      made.push(await json(res));
    }
    expect(made.map((n) => [n.spec.finalizers, n.status])).toEqual([
      [["kubernetes"], { phase: "Active" }],
      [["kubernetes"], { phase: "Active" }],
      [["x.io/keep", "kubernetes"], { phase: "Active" }],
    ]);
    const patched = await json(
      await h.http("/api/v1/namespaces/fin-0", {
        method: "PATCH",
        headers: { "Content-Type": "application/merge-patch+json" },
        body: JSON.stringify({ spec: { finalizers: [] } }),
      }),
    );
    expect(patched.spec.finalizers).toEqual(["kubernetes"]);
    const finalized = await json(
      await h.http("/api/v1/namespaces/fin-0/finalize", {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ metadata: { name: "fin-0" }, spec: { finalizers: [] } }),
      }),
    );
    expect(finalized.spec.finalizers).toEqual([]);
  });

  it("deletes a namespace as kube-controller-manager does: contents first, conditions saying what remains", async () => {
    await h.core.createNamespace({ body: { metadata: { name: "doomed" } } });
    await create("doomed", "w1");
    await create("doomed", "w2", { finalizers: ["x.io/hold"] });
    await create("doomed", "w3", { finalizers: ["x.io/hold", "y.io/other"] });
    await h.core.createNamespacedSecret({
      namespace: "doomed",
      body: { metadata: { name: "s" }, stringData: { k: "v" } },
    });
    await h.core.createNamespacedConfigMap({ namespace: "doomed", body: { metadata: { name: "c" } } });
    await h.core.createNamespacedEvent({
      namespace: "doomed",
      body: { metadata: { name: "e" }, involvedObject: { kind: "Widget", name: "w1", namespace: "doomed" } },
    });
    const leases = "/apis/coordination.k8s.io/v1/namespaces/doomed/leases";
    await h.http(leases, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ metadata: { name: "l" }, spec: { holderIdentity: "x" } }),
    });

    const res = await json(await h.http("/api/v1/namespaces/doomed", { method: "DELETE" }));
    expect(res.status.phase).toBe("Terminating");
    expect(res.spec.finalizers).toEqual(["kubernetes"]);
    for (const path of [
      `${widgets("doomed")}/w1`,
      "/api/v1/namespaces/doomed/secrets/s",
      "/api/v1/namespaces/doomed/configmaps/c",
      "/api/v1/namespaces/doomed/events/e",
      `${leases}/l`,
    ])
      await eventually(async () => (await h.http(path)).status === 404);
    const held = await eventually(async () => {
      const ns = await json(await h.http("/api/v1/namespaces/doomed"));
      return ns.status.conditions ? ns : undefined;
    });
    expect(held.status.phase).toBe("Terminating");
    expect(
      held.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message]),
    ).toEqual([
      [
        "NamespaceDeletionDiscoveryFailure",
        "False",
        "ResourcesDiscovered",
        "All resources successfully discovered",
      ],
      [
        "NamespaceDeletionGroupVersionParsingFailure",
        "False",
        "ParsedGroupVersions",
        "All legacy kube types successfully parsed",
      ],
      [
        "NamespaceDeletionContentFailure",
        "False",
        "ContentDeleted",
        "All content successfully deleted, may be waiting on finalization",
      ],
      [
        "NamespaceContentRemaining",
        "True",
        "SomeResourcesRemain",
        `Some resources are remaining: widgets.${GROUP} has 2 resource instances`,
      ],
      [
        "NamespaceFinalizersRemaining",
        "True",
        "SomeFinalizersRemain",
        "Some content in the namespace has finalizers remaining: x.io/hold in 2 resource instances, y.io/other in 1 resource instances",
      ],
    ]);
    expect((await json(await h.http(`${widgets("doomed")}/w2`))).metadata.deletionTimestamp).toBeDefined();

    const blocked = await create("doomed", "w4");
    expect(blocked.status).toBe(403);
    expect(await json(blocked)).toMatchObject({
      reason: "Forbidden",
      message: `widgets.${GROUP} "w4" is forbidden: unable to create new content in namespace doomed because it is being terminated`,
      details: {
        causes: [
          {
            reason: "NamespaceTerminating",
            message: "namespace doomed is being terminated",
            field: "metadata.namespace",
          },
        ],
      },
    });

    await patch(`${widgets("doomed")}/w3`, { metadata: { finalizers: null } });
    await eventually(async () => {
      const ns = await json(await h.http("/api/v1/namespaces/doomed"));
      return ns.status.conditions[4].message ===
        "Some content in the namespace has finalizers remaining: x.io/hold in 1 resource instances"
        ? ns
        : undefined;
    });
    expect((await h.http("/api/v1/namespaces/doomed")).status).toBe(200);
    await patch(`${widgets("doomed")}/w2`, { metadata: { finalizers: null } });
    await eventually(async () => (await h.http("/api/v1/namespaces/doomed")).status === 404);
  });

  it("a namespace held by a finalizer of its own stays, empty and Terminating, until that one goes too", async () => {
    await h.http("/api/v1/namespaces", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ metadata: { name: "kept" }, spec: { finalizers: ["x.io/outside"] } }),
    });
    await h.core.createNamespacedConfigMap({ namespace: "kept", body: { metadata: { name: "c" } } });
    await h.http("/api/v1/namespaces/kept", { method: "DELETE" });
    const ns = await eventually(async () => {
      const body = await json(await h.http("/api/v1/namespaces/kept"));
      return body.spec.finalizers.length === 1 ? body : undefined;
    });
    expect(ns.spec.finalizers).toEqual(["x.io/outside"]);
    expect(ns.status.phase).toBe("Terminating");
    expect(ns.status.conditions.every((c: { status: string }) => c.status === "False")).toBe(true);
    expect((await h.http("/api/v1/namespaces/kept/configmaps/c")).status).toBe(404);
    // An Event (what an operator records there) is refused word for word as kube-apiserver 1.32
    // refuses it: the cause NamespaceTerminating tells it from RBAC's 403, which has none.
    const event = await h.http("/api/v1/namespaces/kept/events", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: "x.1", namespace: "kept" },
        involvedObject: { kind: "Network", name: "x", namespace: "kept" },
        type: "Normal",
        reason: "R",
        message: "m",
      }),
    });
    expect(event.status).toBe(403);
    expect(await json(event)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'events "x.1" is forbidden: unable to create new content in namespace kept because it is being terminated',
      reason: "Forbidden",
      details: {
        name: "x.1",
        kind: "events",
        causes: [
          {
            reason: "NamespaceTerminating",
            message: "namespace kept is being terminated",
            field: "metadata.namespace",
          },
        ],
      },
      code: 403,
    });
    await h.http("/api/v1/namespaces/kept/finalize", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ metadata: { name: "kept" }, spec: { finalizers: [] } }),
    });
    await eventually(async () => (await h.http("/api/v1/namespaces/kept")).status === 404);
  });

  it("deleting a CRD deletes its resources, then stops serving them", async () => {
    await createCrd(h, widgetCrd({ plural: "sprockets", kind: "Sprocket" }));
    const path = `/apis/${GROUP}/v1/namespaces/del/sprockets`;
    await h.http(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: "Sprocket", metadata: { name: "s1" } }),
    });
    const watch = await h.http(`${path}?watch=true&resourceVersion=0`);
    const streamed = watch.text();
    await h.http(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.${GROUP}`, {
      method: "DELETE",
    });
    await eventually(async () => (await h.http(path)).status === 404);
    // The watch ends once the resource is no longer served, after the instance's DELETED event.
    const events = (await streamed)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).type);
    expect(events).toEqual(["ADDED", "DELETED"]);
    const discovery = await json(await h.http(`/apis/${GROUP}/v1`));
    expect(discovery.resources.map((r: { name: string }) => r.name)).not.toContain("sprockets");
    expect(
      (await h.http(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.${GROUP}`)).status,
    ).toBe(404);
  });

  it("deletecollection deletes what the selector matches", async () => {
    await create("del", "dc1", { labels: { batch: "x" } });
    await create("del", "dc2", { labels: { batch: "x" } });
    await create("del", "dc3", { labels: { batch: "y" } });
    const res = await h.http(`${widgets("del")}?labelSelector=batch%3Dx`, { method: "DELETE" });
    expect(res.status).toBe(200);
    const left = await json(await h.http(`${widgets("del")}?labelSelector=batch`));
    expect(left.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(["dc3"]);
  });
});
