import * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { h, json, send, useApiCluster } from "./api-harness.ts";
import { createCrd, GROUP, widgetCrd } from "./helpers.ts";

useApiCluster();

describe("discovery", () => {
  it("serves /version without a token, and everything else only with it (401 Status)", async () => {
    const version = await h.http("/version", { noAuth: true });
    expect(version.status).toBe(200);
    expect(await json(version)).toMatchObject({ major: "1", gitVersion: expect.stringMatching(/^v1\./) });
    const denied = await h.http("/api/v1/namespaces", { noAuth: true });
    expect(denied.status).toBe(401);
    expect(await json(denied)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
    const wrong = await h.http("/api/v1/namespaces", {
      noAuth: true,
      headers: { Authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
  });

  it("lists core, built-in groups and CRD groups with kinds, verbs, short names, categories, subresources", async () => {
    expect(await json(await h.http("/api"))).toMatchObject({ kind: "APIVersions", versions: ["v1"] });
    const core = await json(await h.http("/api/v1"));
    expect(core.groupVersion).toBe("v1");
    const names = core.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(["namespaces", "namespaces/status", "secrets", "configmaps", "events"]),
    );
    const groups = await json(await h.http("/apis"));
    expect(groups.kind).toBe("APIGroupList");
    const groupNames = groups.groups.map((g: { name: string }) => g.name);
    expect(groupNames).toEqual(
      expect.arrayContaining(["apiextensions.k8s.io", "coordination.k8s.io", "events.k8s.io", GROUP]),
    );
    const ours = await json(await h.http(`/apis/${GROUP}/v1`));
    const widgets = ours.resources.find((r: { name: string }) => r.name === "widgets");
    expect(widgets).toMatchObject({
      singularName: "widget",
      namespaced: true,
      kind: "Widget",
      shortNames: ["wix"],
      categories: ["testing"],
      verbs: expect.arrayContaining([
        "create",
        "delete",
        "deletecollection",
        "get",
        "list",
        "patch",
        "update",
        "watch",
      ]),
    });
    expect(ours.resources.find((r: { name: string }) => r.name === "widgets/status")).toMatchObject({
      verbs: ["get", "patch", "update"],
    });
    expect(ours.resources.find((r: { name: string }) => r.name === "gadgets")).toMatchObject({
      namespaced: false,
    });
    expect(await json(await h.http(`/apis/${GROUP}`))).toMatchObject({
      kind: "APIGroup",
      preferredVersion: { groupVersion: `${GROUP}/v1`, version: "v1" },
    });
  });

  it("serves aggregated discovery (apidiscovery.k8s.io/v2) when asked, legacy otherwise", async () => {
    const accept =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
    const apis = await h.http("/apis", { headers: { Accept: accept } });
    expect(apis.headers.get("content-type")).toBe(
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    );
    const body = await json(apis);
    expect(body).toMatchObject({ kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2" });
    const ours = body.items.find((g: { metadata: { name: string } }) => g.metadata.name === GROUP);
    expect(ours.versions[0].version).toBe("v1");
    expect(ours.versions[0].freshness).toBe("Current");
    expect(
      ours.versions[0].resources.find((r: { resource: string }) => r.resource === "widgets"),
    ).toMatchObject({
      responseKind: { group: GROUP, version: "v1", kind: "Widget" },
      scope: "Namespaced",
      singularResource: "widget",
      shortNames: ["wix"],
      categories: ["testing"],
      subresources: [{ subresource: "status", verbs: ["get", "patch", "update"] }],
    });
    const core = await json(await h.http("/api", { headers: { Accept: accept } }));
    expect(core.items).toHaveLength(1);
    expect(core.items[0].versions[0].resources.map((r: { resource: string }) => r.resource)).toContain(
      "secrets",
    );
    expect((await json(await h.http("/api"))).kind).toBe("APIVersions");
  });

  it("sets NamesAccepted and Established on a CRD and rejects a conflicting one", async () => {
    const crd = await h.ext.readCustomResourceDefinition({ name: `widgets.${GROUP}` });
    const conditions = Object.fromEntries((crd.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(conditions.NamesAccepted).toMatchObject({ status: "True", reason: "NoConflicts" });
    expect(conditions.Established).toMatchObject({ status: "True", reason: "InitialNamesAccepted" });
    expect(crd.status?.acceptedNames).toMatchObject({ plural: "widgets", kind: "Widget" });
    // The cleanup finalizer comes with the CRD's deletion, as on the real server.
    expect(crd.metadata?.finalizers).toBeUndefined();
    const clash = widgetCrd({ plural: "widgetz", kind: "Widget" });
    await createCrd(h, clash);
    const read = await h.ext.readCustomResourceDefinition({ name: `widgetz.${GROUP}` });
    const byType = Object.fromEntries((read.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(byType.NamesAccepted).toMatchObject({
      status: "False",
      reason: "SingularConflict",
      message: '"widget" is already in use',
    });
    expect(byType.Established).toMatchObject({ status: "False", reason: "NotAccepted" });
  });

  it("rejects an invalid CRD with 422 naming the fields", async () => {
    const bad = widgetCrd();
    bad.metadata.name = "wrong.example.svc.io";
    (bad.spec as Record<string, unknown>).scope = "Everywhere";
    const res = await send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", bad);
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.reason).toBe("Invalid");
    expect(body.message).toContain(
      'CustomResourceDefinition.apiextensions.k8s.io "wrong.example.svc.io" is invalid: [',
    );
    expect(body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      "metadata.name",
      "spec.scope",
    ]);
  });
});

describe("built-in resources", () => {
  it("turns Secret stringData into base64 data", async () => {
    const secret = await h.core.createNamespacedSecret({
      namespace: "api",
      body: { metadata: { name: "creds" }, stringData: { refreshToken: "tok-123" } },
    });
    expect(secret.data).toEqual({ refreshToken: Buffer.from("tok-123").toString("base64") });
    expect((secret as { stringData?: unknown }).stringData).toBeUndefined();
    expect(secret.type).toBe("Opaque");
    const read = await h.core.readNamespacedSecret({ namespace: "api", name: "creds" });
    expect(Buffer.from(read.data!.refreshToken!, "base64").toString()).toBe("tok-123");
  });

  it("serves configmaps with strategic merge patch, and events through core/v1 and events.k8s.io/v1", async () => {
    await h.core.createNamespacedConfigMap({
      namespace: "api",
      body: { metadata: { name: "cm" }, data: { a: "1" } },
    });
    const patched = await send(
      "PATCH",
      "/api/v1/namespaces/api/configmaps/cm",
      { data: { b: "2" } },
      "application/strategic-merge-patch+json",
    );
    expect((await json(patched)).data).toEqual({ a: "1", b: "2" });
    await h.core.createNamespacedEvent({
      namespace: "api",
      body: {
        metadata: { name: "ev1" },
        involvedObject: { kind: "Widget", name: "gen", namespace: "api" },
        reason: "Created",
        message: "created it",
        type: "Normal",
        count: 1,
      },
    });
    const modern = await json(await h.http("/apis/events.k8s.io/v1/namespaces/api/events/ev1"));
    expect(modern).toMatchObject({
      apiVersion: "events.k8s.io/v1",
      note: "created it",
      regarding: { name: "gen" },
      deprecatedCount: 1,
    });
    await send("POST", "/apis/events.k8s.io/v1/namespaces/api/events", {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: "ev2" },
      regarding: { kind: "Widget", name: "st", namespace: "api" },
      reason: "Updated",
      note: "updated it",
      type: "Normal",
      action: "Update",
      reportingController: "svc-operator",
      reportingInstance: "x",
      eventTime: "2026-01-01T00:00:00.000000Z",
    });
    const legacy = await h.core.readNamespacedEvent({ namespace: "api", name: "ev2" });
    expect(legacy.message).toBe("updated it");
    expect(legacy.involvedObject.name).toBe("st");
    const byField = await h.core.listNamespacedEvent({
      namespace: "api",
      fieldSelector: "involvedObject.name=gen",
    });
    expect(byField.items.map((e) => e.metadata?.name)).toEqual(["ev1"]);
  });

  it("enforces the real server's rules for events, leases and creates", async () => {
    const event = await send("POST", "/api/v1/namespaces/api/events", {
      metadata: { name: "wrong-ns" },
      involvedObject: { kind: "Widget", name: "x", namespace: "other" },
      reason: "R",
      message: "m",
    });
    expect(event.status).toBe(422);
    expect((await json(event)).message).toBe(
      'Event "wrong-ns" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    );
    const clusterScoped = await send("POST", "/api/v1/namespaces/default/events", {
      metadata: { name: "about-a-namespace" },
      involvedObject: { kind: "Namespace", name: "api" },
      reason: "R",
      message: "m",
    });
    expect(clusterScoped.status).toBe(201);
    const lease = await send("POST", "/apis/coordination.k8s.io/v1/namespaces/api/leases", {
      metadata: { name: "bad-lease" },
      spec: { leaseDurationSeconds: 0 },
    });
    expect(lease.status).toBe(422);
    expect((await json(lease)).details.causes[0].field).toBe("spec.leaseDurationSeconds");
    const withRv = await send("POST", "/api/v1/namespaces/api/configmaps", {
      metadata: { name: "rv", resourceVersion: "5" },
    });
    // kube-apiserver 1.32 answers a bare 500 (no reason) here.
    expect(withRv.status).toBe(500);
    expect((await json(withRv)).message).toBe("resourceVersion should not be set on objects to be created");
  });

  it("keeps immutable configmaps immutable and validates labels", async () => {
    await send("POST", "/api/v1/namespaces/api/configmaps", {
      metadata: { name: "frozen" },
      data: { a: "1" },
      immutable: true,
    });
    const changed = await send(
      "PATCH",
      "/api/v1/namespaces/api/configmaps/frozen",
      { data: { a: "2" } },
      "application/merge-patch+json",
    );
    expect(changed.status).toBe(422);
    expect((await json(changed)).message).toBe(
      'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
    const badLabel = await send("POST", "/api/v1/namespaces/api/configmaps", {
      metadata: { name: "labelled", labels: { "bad key!": "x" } },
    });
    expect(badLabel.status).toBe(422);
    expect((await json(badLabel)).details.causes[0].field).toBe("metadata.labels");
  });

  it("serves coordination.k8s.io/v1 leases with optimistic concurrency", async () => {
    const coord = h.kc.makeApiClient(k8s.CoordinationV1Api);
    const lease = await coord.createNamespacedLease({
      namespace: "api",
      body: { metadata: { name: "leader" }, spec: { holderIdentity: "a", leaseDurationSeconds: 15 } },
    });
    const renewed = await coord.replaceNamespacedLease({
      namespace: "api",
      name: "leader",
      body: { ...lease, spec: { ...lease.spec, holderIdentity: "a", renewTime: new k8s.V1MicroTime() } },
    });
    expect(renewed.metadata?.resourceVersion).not.toBe(lease.metadata?.resourceVersion);
    await expect(
      coord.replaceNamespacedLease({
        namespace: "api",
        name: "leader",
        body: { ...lease, spec: { holderIdentity: "b" } },
      }),
    ).rejects.toMatchObject({ code: 409 });
  });
});
