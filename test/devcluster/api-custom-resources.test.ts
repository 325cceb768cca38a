import type * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { base, h, json, send, useApiCluster, widget } from "./api-harness.ts";
import { createCrd, GROUP, widgetCrd } from "./helpers.ts";

useApiCluster();

describe("custom resources", () => {
  it("keeps uid, creationTimestamp, generation and a global resourceVersion; 409 on a stale one", async () => {
    const a = (await h.custom.createNamespacedCustomObject({
      ...base,
      body: widget("gen"),
    })) as k8s.KubernetesObject;
    expect(a.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.metadata?.creationTimestamp).toBeDefined();
    expect(a.metadata?.generation).toBe(1);
    expect(a.metadata?.managedFields?.[0]).toMatchObject({ operation: "Update", fieldsType: "FieldsV1" });
    const path = `/apis/${GROUP}/v1/namespaces/api/widgets/gen`;
    const labelled = await json(
      await send("PATCH", path, { metadata: { labels: { x: "1" } } }, "application/merge-patch+json"),
    );
    expect(labelled.metadata.generation).toBe(1);
    expect(Number(labelled.metadata.resourceVersion)).toBeGreaterThan(Number(a.metadata?.resourceVersion));
    const specced = await json(
      await send("PATCH", path, { spec: { size: 9 } }, "application/merge-patch+json"),
    );
    expect(specced.metadata.generation).toBe(2);
    const stale = await send("PUT", path, {
      ...widget("gen"),
      metadata: { name: "gen", resourceVersion: a.metadata?.resourceVersion },
    });
    expect(stale.status).toBe(409);
    expect(await json(stale)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `Operation cannot be fulfilled on widgets.${GROUP} "gen": the object has been modified; please apply your changes to the latest version and try again`,
      reason: "Conflict",
      details: { name: "gen", group: GROUP, kind: "widgets" },
      code: 409,
    });
    const noRv = await send("PUT", path, widget("gen"));
    expect(noRv.status).toBe(422);
    expect((await json(noRv)).message).toBe(
      `widgets.${GROUP} "gen" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`,
    );
    const same = await send("PUT", path, { ...specced });
    expect((await json(same)).metadata.resourceVersion).toBe(specced.metadata.resourceVersion);
  });

  it("splits the status subresource: spec ignored on /status, status ignored on the object", async () => {
    const path = `/apis/${GROUP}/v1/namespaces/api/widgets/st`;
    const created = await json(
      await send("POST", `/apis/${GROUP}/v1/namespaces/api/widgets`, {
        ...widget("st"),
        status: { phase: "ignored" },
      }),
    );
    expect(created.status).toBeUndefined();
    const s1 = await json(
      await send(
        "PATCH",
        `${path}/status`,
        { spec: { size: 50 }, status: { phase: "Ready" } },
        "application/merge-patch+json",
      ),
    );
    expect(s1.status).toEqual({ phase: "Ready" });
    expect(s1.spec.size).toBe(1);
    expect(s1.metadata.generation).toBe(1);
    const s2 = await json(
      await send(
        "PATCH",
        path,
        { status: { phase: "Hacked" }, spec: { size: 2 } },
        "application/merge-patch+json",
      ),
    );
    expect(s2.status).toEqual({ phase: "Ready" });
    expect(s2.spec.size).toBe(2);
    expect(s2.metadata.generation).toBe(2);
    const put = await json(await send("PUT", `${path}/status`, { ...s2, status: { phase: "Done" } }));
    expect(put.status.phase).toBe("Done");
    const viaClient = await h.custom.getNamespacedCustomObjectStatus({ ...base, name: "st" });
    expect((viaClient as { status: unknown }).status).toEqual({ phase: "Done" });
  });

  it("selects by labels (=, ==, !=, in, notin, exists, !exists) and by metadata.name / metadata.namespace", async () => {
    const labels = [
      { name: "l1", labels: { app: "web", tier: "front" } },
      { name: "l2", labels: { app: "web", tier: "back" } },
      { name: "l3", labels: { app: "db" } },
      { name: "l4", labels: {} },
    ];
    for (const l of labels) {
      await h.custom.createNamespacedCustomObject({
        ...base,
        body: widget(l.name, { labels: { sel: "yes", ...l.labels } }),
      });
    }
    const names = async (labelSelector: string, fieldSelector?: string) => {
      const list = (await h.custom.listNamespacedCustomObject({
        ...base,
        labelSelector: `sel=yes,${labelSelector}`.replace(/,$/, ""),
        fieldSelector,
      })) as k8s.KubernetesListObject<k8s.KubernetesObject>;
      return list.items.map((i) => i.metadata?.name);
    };
    expect(await names("app=web")).toEqual(["l1", "l2"]);
    expect(await names("app==db")).toEqual(["l3"]);
    expect(await names("app!=web")).toEqual(["l3", "l4"]);
    expect(await names("tier in (front,back)")).toEqual(["l1", "l2"]);
    expect(await names("app notin (web)")).toEqual(["l3", "l4"]);
    expect(await names("tier")).toEqual(["l1", "l2"]);
    expect(await names("!tier")).toEqual(["l3", "l4"]);
    expect(await names("", "metadata.name=l3")).toEqual(["l3"]);
    expect(await names("", "metadata.name!=l3,metadata.namespace=api")).toEqual(["l1", "l2", "l4"]);
    const bad = await h.http(
      `/apis/${GROUP}/v1/namespaces/api/widgets?labelSelector=${encodeURIComponent("a in b")}`,
    );
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toContain("unable to parse requirement");
    const badField = await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets?fieldSelector=spec.size%3D1`);
    expect(badField.status).toBe(400);
  });

  it("pages a list with limit and continue, and lists across namespaces", async () => {
    await h.core.createNamespace({ body: { metadata: { name: "api-b" } } });
    for (let i = 0; i < 7; i++) {
      await h.custom.createNamespacedCustomObject({
        ...base,
        body: widget(`p${i}`, { labels: { page: "yes" } }),
      });
    }
    await h.custom.createNamespacedCustomObject({
      ...base,
      namespace: "api-b",
      body: widget("p-other", { labels: { page: "yes" } }),
    });
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = (await h.custom.listNamespacedCustomObject({
        ...base,
        labelSelector: "page=yes",
        limit: 3,
        _continue: token,
      })) as { items: k8s.KubernetesObject[]; metadata: { continue?: string } };
      seen.push(...page.items.map((i) => i.metadata!.name!));
      token = page.metadata.continue;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(["p0", "p1", "p2", "p3", "p4", "p5", "p6"]);
    const first = await json(await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets?limit=2`));
    expect(first.metadata.remainingItemCount).toBeGreaterThan(0);
    const all = await json(await h.http(`/apis/${GROUP}/v1/widgets?labelSelector=page%3Dyes`));
    expect(all.items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace)).toContain(
      "api-b",
    );
    expect((await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets?continue=garbage`)).status).toBe(400);
  });

  it("serves cluster-scoped custom resources", async () => {
    const g = await h.custom.createClusterCustomObject({
      group: GROUP,
      version: "v1",
      plural: "gadgets",
      body: { apiVersion: `${GROUP}/v1`, kind: "Gadget", metadata: { name: "g1" }, spec: { size: 3 } },
    });
    expect((g as k8s.KubernetesObject).metadata?.namespace).toBeUndefined();
    const list = await json(await h.http(`/apis/${GROUP}/v1/gadgets`));
    expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(["g1"]);
    expect((await h.http(`/apis/${GROUP}/v1/namespaces/api/gadgets`)).status).toBe(404);
    // A namespace sent on a cluster-scoped object is dropped, never a second copy.
    const current = await json(await h.http(`/apis/${GROUP}/v1/gadgets/g1`));
    const put = await send("PUT", `/apis/${GROUP}/v1/gadgets/g1`, {
      ...current,
      metadata: { ...current.metadata, namespace: "api" },
    });
    expect((await json(put)).metadata.namespace).toBeUndefined();
    expect((await json(await h.http(`/apis/${GROUP}/v1/gadgets`))).items).toHaveLength(1);
    await h.custom.deleteClusterCustomObject({ group: GROUP, version: "v1", plural: "gadgets", name: "g1" });
    expect((await h.http(`/apis/${GROUP}/v1/gadgets/g1`)).status).toBe(404);
  });

  it("applies JSON patch and rejects strategic merge on a custom resource with 415", async () => {
    await h.custom.createNamespacedCustomObject({ ...base, body: widget("jp") });
    const path = `/apis/${GROUP}/v1/namespaces/api/widgets/jp`;
    const ok = await send(
      "PATCH",
      path,
      [{ op: "replace", path: "/spec/size", value: 4 }],
      "application/json-patch+json",
    );
    expect((await json(ok)).spec.size).toBe(4);
    const failed = await send(
      "PATCH",
      path,
      [{ op: "test", path: "/spec/size", value: 5 }],
      "application/json-patch+json",
    );
    expect(failed.status).toBe(422);
    const smp = await send("PATCH", path, { spec: { size: 1 } }, "application/strategic-merge-patch+json");
    expect(smp.status).toBe(415);
    expect(await json(smp)).toMatchObject({
      reason: "UnsupportedMediaType",
      code: 415,
      message:
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    });
  });
});

describe("more write options", () => {
  it("names objects from generateName, and dryRun=All stores nothing", async () => {
    const path = `/apis/${GROUP}/v1/namespaces/api/widgets`;
    const generated = await json(
      await send("POST", path, { ...widget(""), metadata: { generateName: "gen-" } }),
    );
    expect(generated.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    const dry = await send("POST", `${path}?dryRun=All`, widget("dry"));
    expect(dry.status).toBe(201);
    expect((await json(dry)).metadata.name).toBe("dry");
    expect((await h.http(`${path}/dry`)).status).toBe(404);
  });

  it("serves a new CRD version at once, with the stored objects converted by apiVersion", async () => {
    const crd = widgetCrd({ plural: "doodads", kind: "Doodad" });
    await createCrd(h, crd);
    const v1 = `/apis/${GROUP}/v1/namespaces/api/doodads`;
    await send("POST", v1, {
      apiVersion: `${GROUP}/v1`,
      kind: "Doodad",
      metadata: { name: "d1" },
      spec: { size: 1 },
    });
    const current = await json(
      await h.http(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/doodads.${GROUP}`),
    );
    const v2 = { ...current.spec.versions[0], name: "v2", storage: false };
    const updated = await send(
      "PUT",
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/doodads.${GROUP}`,
      {
        ...current,
        spec: { ...current.spec, versions: [...current.spec.versions, v2] },
      },
    );
    expect(updated.status).toBe(200);
    expect((await json(updated)).metadata.generation).toBe(2);
    const read = await json(await h.http(`/apis/${GROUP}/v2/namespaces/api/doodads/d1`));
    expect(read.apiVersion).toBe(`${GROUP}/v2`);
    expect(read.spec.size).toBe(1);
    const group = await json(await h.http(`/apis/${GROUP}`));
    expect(group.preferredVersion.version).toBe("v2");
  });

  it("sends the initial-events-end bookmark with sendInitialEvents", async () => {
    const res = await h.http(
      `/apis/${GROUP}/v1/namespaces/api/widgets?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`,
    );
    const events = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const bookmark = events.findIndex((e) => e.type === "BOOKMARK");
    expect(bookmark).toBeGreaterThan(0);
    expect(events.slice(0, bookmark).every((e) => e.type === "ADDED")).toBe(true);
    expect(events[bookmark].object.metadata.annotations).toEqual({ "k8s.io/initial-events-end": "true" });
  });

  it("sends a bookmark before timeoutSeconds ends a quiet watch, as the real watch cache does", async () => {
    // kube-apiserver schedules one 2 s before the deadline, well within its 60 s interval.
    const list = await json(await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets`));
    const res = await h.http(
      `/apis/${GROUP}/v1/namespaces/api/widgets?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${list.metadata.resourceVersion}`,
    );
    const events = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["BOOKMARK"]);
    expect(events[0].object).toEqual({
      kind: "Widget",
      apiVersion: `${GROUP}/v1`,
      metadata: { resourceVersion: expect.any(String) },
    });
  });

  it("answers a watch list asked without resourceVersionMatch=NotOlderThan with kube-apiserver's 422", async () => {
    const res = await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets?watch=true&sendInitialEvents=true`);
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });
});

describe("metadata rules", () => {
  it("validates owner references, refuses a PUT with another uid, labels namespaces with their name", async () => {
    const path = `/apis/${GROUP}/v1/namespaces/api/widgets`;
    const badOwner = await send(
      "POST",
      path,
      widget("owned", { ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "x" }] }),
    );
    expect(badOwner.status).toBe(422);
    expect((await json(badOwner)).details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "": uid must not be empty',
        field: "metadata.ownerReferences.uid",
      },
    ]);
    const created = await json(await send("POST", path, widget("uidcheck")));
    const other = await send("PUT", `${path}/uidcheck`, {
      ...created,
      metadata: { ...created.metadata, uid: "00000000-0000-0000-0000-000000000000" },
    });
    expect(other.status).toBe(409);
    expect((await json(other)).message).toContain(
      "Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000",
    );
    const ns = await h.core.readNamespace({ name: "api" });
    expect(ns.metadata?.labels).toEqual({ "kubernetes.io/metadata.name": "api" });
    expect((await h.http(`/apis/${GROUP}/v1/widgets/uidcheck`)).status).toBe(404);
  });
});
