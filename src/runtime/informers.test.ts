import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createDevCluster, type DevCluster } from "../devcluster/index.ts";
import { cacheTransform, InformerSet, type ListPage, pagedList, withoutManagedFields } from "./informers.ts";
import type { ManagedObject } from "./kind.ts";
import { RawKube } from "./kube-raw.ts";
import { API_VERSION } from "./names.ts";
import { StringPool } from "./string-pool.ts";

const path = (name = "") => `/apis/${API_VERSION}/namespaces/ns/deployments${name ? `/${name}` : ""}`;

const managedFields = (o: ManagedObject | undefined) =>
  (o?.metadata as { managedFields?: unknown[] } | undefined)?.managedFields;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("withoutManagedFields", () => {
  it("drops metadata.managedFields and keeps the rest", () => {
    const o = {
      apiVersion: API_VERSION,
      kind: "Deployment",
      metadata: { name: "a", namespace: "ns", managedFields: [{ manager: "x" }], annotations: { k: "v" } },
      spec: { description: "d" },
    };
    const slim = withoutManagedFields(o);
    expect(slim).toBe(o);
    expect(slim).toEqual({
      apiVersion: API_VERSION,
      kind: "Deployment",
      metadata: { name: "a", namespace: "ns", annotations: { k: "v" } },
      spec: { description: "d" },
    });
    expect(withoutManagedFields({ metadata: { name: "b" } })).toEqual({ metadata: { name: "b" } });
  });
});

describe("cacheTransform", () => {
  const object = (name: string, uid: string) =>
    JSON.parse(
      JSON.stringify({
        apiVersion: API_VERSION,
        kind: "Volume",
        metadata: {
          name,
          namespace: "ns",
          uid,
          resourceVersion: uid,
          finalizers: ["cloud.svc.io/finalizer"],
          managedFields: [{ manager: "svc-operator" }],
        },
        spec: { cloudHref: "/api/clouds/1", size: 10 },
        status: { conditions: [{ type: "Ready", status: "True", reason: "ReconcileSuccess" }] },
      }),
    );

  it("drops managedFields and pools the strings objects share, not their names and uids", () => {
    const pool = new StringPool();
    const slim = cacheTransform(pool);
    const a = slim(object("a", "uid-a"));
    const shared = pool.length;
    // apiVersion, kind, namespace, finalizer, cloudHref and the condition's strings.
    expect(shared).toBeGreaterThanOrEqual(6);
    const b = slim(object("b", "uid-b"));
    expect(pool.length).toBe(shared);
    expect(b).toEqual({
      apiVersion: API_VERSION,
      kind: "Volume",
      metadata: {
        name: "b",
        namespace: "ns",
        uid: "uid-b",
        resourceVersion: "uid-b",
        finalizers: ["cloud.svc.io/finalizer"],
      },
      spec: { cloudHref: "/api/clouds/1", size: 10 },
      status: { conditions: [{ type: "Ready", status: "True", reason: "ReconcileSuccess" }] },
    });
    expect(a.metadata.name).toBe("a");
  });
});

describe("InformerSet against the devcluster", () => {
  let cluster: DevCluster;
  let raw: RawKube;
  let informers: InformerSet;
  let api: CustomObjectsApi;
  const added: ManagedObject[] = [];
  const updated: { object: ManagedObject; old: ManagedObject | undefined }[] = [];

  beforeAll(async () => {
    cluster = await createDevCluster();
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    raw = new RawKube(kc);
    const crd = parse(await readFile(join(import.meta.dirname, "../../crds/deployment.yaml"), "utf8"));
    await raw.call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    await raw.call("POST", "/api/v1/namespaces", { metadata: { name: "ns" } });
    await raw.call("POST", path(), {
      apiVersion: API_VERSION,
      kind: "Deployment",
      metadata: { name: "web" },
      spec: { accountRef: { name: "default" }, description: "first" },
    });
    api = kc.makeApiClient(CustomObjectsApi);
    informers = new InformerSet({
      kubeConfig: kc,
      api,
      kinds: [{ kind: "Deployment", plural: "deployments" }],
      namespaces: [],
      handlers: {
        added: (_kind, object) => added.push(object),
        updated: (_kind, object, old) => updated.push({ object, old }),
        deleted: () => {},
      },
      log: pino({ level: "silent" }),
    });
    await informers.start();
  });

  afterAll(async () => {
    await informers?.stop();
    await raw?.close();
    await cluster?.close();
  });

  it("caches listed objects without managedFields", async () => {
    const stored = await raw.call<ManagedObject>("GET", path("web"));
    expect(managedFields(stored)?.length).toBeGreaterThan(0);
    const cached = informers.get("Deployment", "ns", "web");
    expect(cached?.metadata.name).toBe("web");
    expect(cached?.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
    expect(managedFields(cached)).toBeUndefined();
    expect(added.map((o) => o.metadata.name)).toEqual(["web"]);
    expect(added[0]).toBe(cached);
  });

  it("delivers watched updates without managedFields, with the version before", async () => {
    await raw.call("PATCH", path("web"), { spec: { description: "second" } }, "application/merge-patch+json");
    await until(() => updated.length > 0, "the update");
    const { object, old } = updated[0]!;
    expect(object.spec).toMatchObject({ description: "second" });
    expect(managedFields(object)).toBeUndefined();
    expect(old?.spec).toMatchObject({ description: "first" });
    expect(informers.get("Deployment", "ns", "web")).toBe(object);
    expect(informers.list("Deployment")).toEqual([object]);
  });

  it("reads a list page by page with the server's continue token, slimming each page", async () => {
    for (const name of ["b", "c"])
      await raw.call("POST", path(), {
        apiVersion: API_VERSION,
        kind: "Deployment",
        metadata: { name },
        spec: { accountRef: { name: "default" } },
      });
    const tokens: (string | undefined)[] = [];
    const list = await pagedList((cont) => {
      tokens.push(cont);
      return api.listNamespacedCustomObject({
        group: "cloud.svc.io",
        version: "v1alpha1",
        namespace: "ns",
        plural: "deployments",
        limit: 2,
        _continue: cont,
      }) as Promise<ListPage>;
    });
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toBeUndefined();
    expect(tokens[1]).toEqual(expect.any(String));
    expect(list.items.map((o) => o.metadata?.name).sort()).toEqual(["b", "c", "web"]);
    expect(list.items.every((o) => managedFields(o as ManagedObject) === undefined)).toBe(true);
    expect(list.metadata?.resourceVersion).toEqual(expect.any(String));
  });
});
