import { describe, expect, it } from "vitest";
import { StringPool } from "../../lib/index.ts";
import type { ManagedObject } from "../sdk/index.ts";
import { API_VERSION } from "../sdk/index.ts";
import { cacheTransform, LAST_APPLIED, withoutManagedFields } from "./cache-slim.ts";
import { listPath } from "./informers.ts";

const _managedFields = (o: ManagedObject | undefined) =>
  (o?.metadata as { managedFields?: unknown[] } | undefined)?.managedFields;

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

  it("keeps the parsed metadata object, with no copy of it and no field deleted", () => {
    const o = JSON.parse('{"metadata":{"name":"a","uid":"u","managedFields":[{"manager":"x"}]}}');
    const metadata = o.metadata;
    expect(withoutManagedFields(o).metadata).toBe(metadata);
    expect(JSON.stringify(o)).toBe('{"metadata":{"name":"a","uid":"u"}}');
  });
});

describe("listPath", () => {
  it("asks for a page of 500 with the shard's label selector and the continue token, encoded", () => {
    expect(listPath("/apis/g/v1/things", undefined, undefined)).toBe("/apis/g/v1/things?limit=500");
    expect(listPath("/api/v1/namespaces/a/configmaps", "shard in (a,b)", "tok/en=")).toBe(
      "/api/v1/namespaces/a/configmaps?limit=500&labelSelector=shard+in+%28a%2Cb%29&continue=tok%2Fen%3D",
    );
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
          creationTimestamp: "2026-11-25T16:00:18Z",
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
    // apiVersion, kind, namespace, creationTimestamp, finalizer, cloudHref and the condition's strings.
    expect(shared).toBeGreaterThanOrEqual(7);
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
        creationTimestamp: "2026-11-25T16:00:18Z",
        finalizers: ["cloud.svc.io/finalizer"],
      },
      spec: { cloudHref: "/api/clouds/1", size: 10 },
      status: { conditions: [{ type: "Ready", status: "True", reason: "ReconcileSuccess" }] },
    });
    expect(a.metadata.name).toBe("a");
    // Equal condition lists are one list.
    expect(b.status.conditions).toBe(a.status.conditions);
  });

  it("shares the small values objects hold alike (finalizers, references, empty objects), frozen", () => {
    const slim = cacheTransform(new StringPool());
    const withRefs = (name: string, uid: string) => {
      const o = object(name, uid);
      o.spec.accountRef = { name: "default" };
      o.spec.tags = [];
      o.status.atProvider = { inputs: {}, name };
      return o;
    };
    const a = slim(withRefs("a", "uid-a"));
    const b = slim(withRefs("b", "uid-b"));
    expect(b.metadata.finalizers).toBe(a.metadata.finalizers);
    expect(b.spec.accountRef).toBe(a.spec.accountRef);
    expect(b.spec.tags).toBe(a.spec.tags);
    expect((b.status.atProvider as { inputs: object }).inputs).toBe(
      (a.status.atProvider as { inputs: object }).inputs,
    );
    expect(Object.isFrozen(b.spec.accountRef)).toBe(true);
    // Each object's own values stay its own.
    expect(b.status.atProvider).toEqual({ inputs: {}, name: "b" });
    expect(b.status.atProvider).not.toBe(a.status.atProvider);
    expect(b.spec).toEqual({
      cloudHref: "/api/clouds/1",
      size: 10,
      accountRef: { name: "default" },
      tags: [],
    });
  });

  it("given the version the cache holds, keeps that version's parts where the new one is equal", () => {
    const slim = cacheTransform(new StringPool());
    const previous = slim(object("a", "uid-a"));
    previous.metadata.annotations = { "cloud.svc.io/href": "/api/volumes/1" };
    previous.status.atProvider = { name: "a", size: 10 };
    const next = object("a", "uid-a");
    next.metadata.resourceVersion = "2";
    next.metadata.annotations = { "cloud.svc.io/href": "/api/volumes/1" };
    next.status = {
      conditions: [{ type: "Ready", status: "False", reason: "Creating" }],
      atProvider: { name: "a", size: 10 },
      href: "/api/volumes/1",
    };
    const kept = slim(next, previous);
    expect(kept.spec).toBe(previous.spec);
    expect(kept.status.atProvider).toBe(previous.status.atProvider);
    expect(kept.metadata.annotations).toBe(previous.metadata.annotations);
    expect(kept.metadata.finalizers).toBe(previous.metadata.finalizers);
    // What changed is the new version's.
    expect(kept.metadata.resourceVersion).toBe("2");
    expect(kept.status.conditions).toEqual([{ type: "Ready", status: "False", reason: "Creating" }]);
    expect(kept.status.href).toBe("/api/volumes/1");
    const changed = object("a", "uid-a");
    changed.spec.size = 20;
    expect(slim(changed, previous).spec).toEqual({ cloudHref: "/api/clouds/1", size: 20 });
    expect(slim(object("a", "uid-a")).spec).not.toBe(previous.spec);
  });

  it("drops kubectl's last-applied annotation and keeps the others", () => {
    const o = object("c", "uid-c");
    o.metadata.annotations = { [LAST_APPLIED]: JSON.stringify(o), "cloud.svc.io/href": "/api/volumes/1" };
    expect(cacheTransform(new StringPool())(o).metadata.annotations).toEqual({
      "cloud.svc.io/href": "/api/volumes/1",
    });
  });
});
