import { it } from "vitest";
import type { Differ } from "./differ.ts";
import { core, GROUP, gizmo, gizmos } from "./fixtures.ts";

const MERGE = "application/merge-patch+json";
const JSON_PATCH = "application/json-patch+json";
const STRATEGIC = "application/strategic-merge-patch+json";

type Doc = Record<string, unknown>;

/** The verbs on custom resources and ConfigMaps: create, get, list, update, patches, status, deletion. */
export function objectCases(differ: () => Differ): void {
  it("creates and reads custom resources and ConfigMaps", async () => {
    const d = differ();
    const ns = d.namespace;
    await d.http("POST gizmo", {
      method: "POST",
      path: gizmos(ns),
      body: gizmo("g1", { size: 3 }, { app: "a", tier: "front" }),
    });
    await d.http("POST gizmo 2", {
      method: "POST",
      path: gizmos(ns),
      body: gizmo("g2", { size: 4 }, { app: "b" }),
    });
    await d.http("POST gizmo 3", {
      method: "POST",
      path: gizmos(ns),
      body: gizmo("g3", { size: 5, tags: ["x"], ports: [{ name: "p", port: 1 }] }, { app: "a" }),
    });
    const generated = { ...gizmo(""), metadata: { generateName: "gen-", labels: { app: "gen" } } };
    await d.http("POST gizmo with generateName", { method: "POST", path: gizmos(ns), body: generated });
    await d.http("GET gizmo", { path: gizmos(ns, "g1") });
    await d.http("POST configmap", {
      method: "POST",
      path: core(ns, "configmaps"),
      body: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "c1", labels: { app: "a" } },
        data: { k: "v" },
      },
    });
    await d.http("POST configmap with empty maps", {
      method: "POST",
      path: core(ns, "configmaps"),
      body: { metadata: { name: "c2", labels: {}, annotations: {}, finalizers: [] }, data: {} },
    });
    await d.http("POST gizmo with empty maps", {
      method: "POST",
      path: gizmos(ns),
      body: { ...gizmo("g4"), metadata: { name: "g4", labels: {}, annotations: {}, finalizers: [] } },
    });
    await d.http("GET configmap", { path: core(ns, "configmaps", "c1") });
    await d.http("POST secret with stringData", {
      method: "POST",
      path: core(ns, "secrets"),
      body: { metadata: { name: "s1" }, stringData: { password: "p" }, data: { user: "dQ==" } },
    });
  });

  it("lists with label and field selectors and in chunks", async () => {
    const d = differ();
    const ns = d.namespace;
    for (const selector of ["app=a", "app!=a", "app in (a,b)", "!tier", "tier", "app notin (b),tier"])
      await d.http(`LIST gizmos labelSelector=${selector}`, {
        path: `${gizmos(ns)}?labelSelector=${encodeURIComponent(selector)}`,
      });
    await d.http("LIST gizmos fieldSelector=metadata.name", {
      path: `${gizmos(ns)}?fieldSelector=metadata.name%3Dg2`,
    });
    await d.http("LIST gizmos fieldSelector=metadata.namespace!=", {
      path: `${gizmos(ns)}?fieldSelector=metadata.namespace!%3Dother`,
    });
    await d.http("LIST gizmos fieldSelector=spec.size", {
      path: `${gizmos(ns)}?fieldSelector=spec.size%3D3`,
    });
    await d.http("LIST secrets fieldSelector=type", {
      path: `${core(ns, "secrets")}?fieldSelector=type%3DOpaque`,
    });
    await d.http("LIST gizmos across namespaces", { path: `/apis/${GROUP}/v1/gizmos?labelSelector=app%3Da` });
    const first = await d.http("LIST gizmos limit=2", { path: `${gizmos(ns)}?limit=2` });
    const token = (b: unknown) => encodeURIComponent(String(((b as Doc).metadata as Doc).continue));
    const second = await d.both((s) =>
      s.call({
        path: `${gizmos(ns)}?limit=2&continue=${token(s === d.pair.dev ? first.dev.body : first.real.body)}`,
      }),
    );
    d.alike("LIST gizmos limit=2 continue", second.dev, second.real);
    await d.http("LIST gizmos limit=2 labelSelector", {
      path: `${gizmos(ns)}?limit=2&labelSelector=app%3Da`,
    });
    await d.http("LIST gizmos continue garbage", { path: `${gizmos(ns)}?limit=2&continue=garbage` });
    await d.http("LIST configmaps", { path: core(ns, "configmaps") });
    await d.http("LIST namespaces fieldSelector", {
      path: `/api/v1/namespaces?fieldSelector=metadata.name%3D${ns}`,
    });
  });

  it("updates and patches (merge, JSON, strategic) as the real server does", async () => {
    const d = differ();
    const ns = d.namespace;
    const got = await d.both((s) => s.call({ path: gizmos(ns, "g1") }));
    const put = (body: unknown) => {
      const next = structuredClone(body) as Doc;
      (next.spec as Doc).size = 6;
      ((next.metadata as Doc).labels as Doc).updated = "yes";
      return next;
    };
    const updated = await d.both((s) =>
      s.call({
        method: "PUT",
        path: gizmos(ns, "g1"),
        body: put(s === d.pair.dev ? got.dev.body : got.real.body),
      }),
    );
    d.alike("PUT gizmo", updated.dev, updated.real);
    const stale = await d.both((s) =>
      s.call({
        method: "PUT",
        path: gizmos(ns, "g1"),
        body: put(s === d.pair.dev ? got.dev.body : got.real.body),
      }),
    );
    d.alike("PUT gizmo with a stale resourceVersion", stale.dev, stale.real);
    await d.http("PUT gizmo without resourceVersion", {
      method: "PUT",
      path: gizmos(ns, "g2"),
      body: gizmo("g2", { size: 2 }),
    });
    await d.http("PUT configmap without resourceVersion", {
      method: "PUT",
      path: core(ns, "configmaps", "c1"),
      body: { metadata: { name: "c1" }, data: { k: "w" } },
    });
    const patch = (id: string, path: string, contentType: string, body: unknown) =>
      d.http(id, { method: "PATCH", path, contentType, body });
    await patch("PATCH gizmo merge", gizmos(ns, "g1"), MERGE, {
      spec: { tags: ["a", "b"] },
      metadata: { annotations: { note: "n" } },
    });
    await patch("PATCH gizmo merge null", gizmos(ns, "g1"), MERGE, {
      metadata: { annotations: { note: null } },
    });
    await patch("PATCH gizmo JSON", gizmos(ns, "g1"), JSON_PATCH, [
      { op: "add", path: "/spec/tags/-", value: "c" },
    ]);
    await patch("PATCH gizmo JSON failing test", gizmos(ns, "g1"), JSON_PATCH, [
      { op: "test", path: "/spec/size", value: 1 },
    ]);
    await patch("PATCH gizmo JSON bad path", gizmos(ns, "g1"), JSON_PATCH, [
      { op: "replace", path: "/spec/nothing/x", value: 1 },
    ]);
    await patch("PATCH gizmo strategic", gizmos(ns, "g1"), STRATEGIC, { spec: { size: 2 } });
    await patch("PATCH configmap strategic", core(ns, "configmaps", "c1"), STRATEGIC, {
      data: { s: "1" },
      metadata: { labels: { p: "q" } },
    });
    await patch("PATCH configmap JSON", core(ns, "configmaps", "c1"), JSON_PATCH, [
      { op: "remove", path: "/data/s" },
    ]);
    await patch("PATCH configmap merge stale", core(ns, "configmaps", "c1"), MERGE, {
      metadata: { resourceVersion: "1" },
      data: { x: "y" },
    });
    await patch("PATCH gizmo no change", gizmos(ns, "g1"), MERGE, { spec: { size: 6 } });
    await patch("PATCH missing gizmo", gizmos(ns, "nope"), MERGE, { spec: { size: 2 } });
    await d.http("PATCH gizmo unsupported type", {
      method: "PATCH",
      path: gizmos(ns, "g1"),
      contentType: "text/plain",
      body: "x",
    });
  });

  it("writes status through its subresource only", async () => {
    const d = differ();
    const ns = d.namespace;
    await d.http("PATCH gizmo status on the object", {
      method: "PATCH",
      path: gizmos(ns, "g2"),
      contentType: MERGE,
      body: { status: { phase: "Ignored" } },
    });
    await d.http("PATCH gizmo/status", {
      method: "PATCH",
      path: gizmos(ns, "g2", "status"),
      contentType: MERGE,
      body: { status: { phase: "Ready" }, spec: { size: 9 } },
    });
    await d.http("GET gizmo/status", { path: gizmos(ns, "g2", "status") });
    const got = await d.both((s) => s.call({ path: gizmos(ns, "g2") }));
    const withStatus = (body: unknown) => ({ ...(body as Doc), status: { phase: "Put" } });
    const put = await d.both((s) =>
      s.call({
        method: "PUT",
        path: gizmos(ns, "g2", "status"),
        body: withStatus(s === d.pair.dev ? got.dev.body : got.real.body),
      }),
    );
    d.alike("PUT gizmo/status", put.dev, put.real);
  });

  it("dry-runs writes without storing them", async () => {
    const d = differ();
    const ns = d.namespace;
    await d.http("POST gizmo dryRun", {
      method: "POST",
      path: `${gizmos(ns)}?dryRun=All`,
      body: gizmo("dry", { size: 2 }),
    });
    await d.http("GET gizmo after dryRun", { path: gizmos(ns, "dry") });
    await d.http("PATCH gizmo dryRun", {
      method: "PATCH",
      path: `${gizmos(ns, "g3")}?dryRun=All`,
      contentType: MERGE,
      body: { spec: { size: 7 } },
    });
    await d.http("DELETE gizmo dryRun", { method: "DELETE", path: `${gizmos(ns, "g3")}?dryRun=All` });
    await d.http("GET gizmo after dryRun delete", { path: gizmos(ns, "g3") });
    await d.http("POST gizmo dryRun invalid", {
      method: "POST",
      path: `${gizmos(ns)}?dryRun=All`,
      body: gizmo("dry", { size: 0 }),
    });
    await d.http("POST gizmo dryRun bad value", {
      method: "POST",
      path: `${gizmos(ns)}?dryRun=Some`,
      body: gizmo("dry"),
    });
  });

  it("holds a deletion on finalizers, then deletes", async () => {
    const d = differ();
    const ns = d.namespace;
    await d.http("PATCH gizmo add finalizer", {
      method: "PATCH",
      path: gizmos(ns, "g3"),
      contentType: MERGE,
      body: { metadata: { finalizers: ["differential.svc.io/hold"] } },
    });
    await d.http("DELETE gizmo with a finalizer", { method: "DELETE", path: gizmos(ns, "g3") });
    await d.http("GET gizmo being deleted", { path: gizmos(ns, "g3") });
    await d.http("PATCH gizmo add finalizer while deleting", {
      method: "PATCH",
      path: gizmos(ns, "g3"),
      contentType: MERGE,
      body: { metadata: { finalizers: ["differential.svc.io/hold", "x.io/more"] } },
    });
    await d.http("DELETE gizmo again", { method: "DELETE", path: gizmos(ns, "g3") });
    await d.http("PATCH gizmo remove finalizer", {
      method: "PATCH",
      path: gizmos(ns, "g3"),
      contentType: JSON_PATCH,
      body: [{ op: "remove", path: "/metadata/finalizers" }],
    });
    await d.http("GET gizmo deleted", { path: gizmos(ns, "g3") });
    await d.http("DELETE gizmo", { method: "DELETE", path: gizmos(ns, "g4") });
    await d.http("DELETE configmap", { method: "DELETE", path: core(ns, "configmaps", "c2") });
    await d.http("DELETE gizmo with preconditions", {
      method: "DELETE",
      path: gizmos(ns, "g2"),
      body: { kind: "DeleteOptions", apiVersion: "v1", preconditions: { resourceVersion: "1" } },
    });
    await d.http("DELETE gizmo Background", {
      method: "DELETE",
      path: `${gizmos(ns, "g2")}?propagationPolicy=Background`,
    });
    await d.http("DELETE missing gizmo", { method: "DELETE", path: gizmos(ns, "g2") });
    await d.http("DELETECOLLECTION gizmos", {
      method: "DELETE",
      path: `${gizmos(ns)}?labelSelector=app%3Dgen`,
    });
    await d.http("LIST gizmos after deletions", { path: gizmos(ns) });
  });
}
