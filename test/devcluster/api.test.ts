import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

let h: Harness;
const base = { group: GROUP, version: "v1", namespace: "api", plural: "widgets" };

beforeAll(async () => {
  h = await startHarness();
  await createCrd(h, widgetCrd());
  await createCrd(h, widgetCrd({ scope: "Cluster", plural: "gadgets", kind: "Gadget" }));
  await h.core.createNamespace({ body: { metadata: { name: "api" } } });
});
afterAll(async () => {
  await h.cluster.close();
});

// biome-ignore lint/suspicious/noExplicitAny: responses are read as loose JSON
async function json(res: Response): Promise<any> {
  return res.json();
}

function widget(name: string, extra: Record<string, unknown> = {}) {
  return { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name, ...extra }, spec: { size: 1 } };
}

const send = (method: string, path: string, body: unknown, contentType = "application/json") =>
  h.http(path, {
    method,
    headers: { "Content-Type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

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
    expect(crd.metadata?.finalizers).toContain("customresourcecleanup.apiextensions.k8s.io");
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
    expect((await json(noRv)).message).toContain(
      "metadata.resourceVersion: Invalid value: 0: must be specified for an update",
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
});

describe("client-node's generic object API", () => {
  it("creates, reads, merge-patches and deletes through KubernetesObjectApi (discovery-driven)", async () => {
    const spec = {
      apiVersion: `${GROUP}/v1`,
      kind: "Widget",
      metadata: { name: "generic", namespace: "api" },
    };
    const created = await h.objects.create({ ...spec, spec: { size: 1 } } as k8s.KubernetesObject);
    expect(created.metadata?.uid).toBeDefined();
    const read = (await h.objects.read(spec)) as k8s.KubernetesObject & { spec: { size: number } };
    expect(read.spec.size).toBe(1);
    const patched = (await h.objects.patch(
      { ...spec, spec: { size: 2 } } as k8s.KubernetesObject,
      undefined,
      undefined,
      "test",
      undefined,
      k8s.PatchStrategy.MergePatch,
    )) as k8s.KubernetesObject & { spec: { size: number } };
    expect(patched.spec.size).toBe(2);
    // The default (strategic merge) is refused for custom resources, as by a real server.
    await expect(
      h.objects.patch({ ...spec, spec: { size: 3 } } as k8s.KubernetesObject),
    ).rejects.toMatchObject({ code: 415 });
    // A resourceVersion in a merge patch is a precondition.
    const stale = await send(
      "PATCH",
      `/apis/${GROUP}/v1/namespaces/api/widgets/generic`,
      { metadata: { resourceVersion: created.metadata?.resourceVersion }, spec: { size: 9 } },
      "application/merge-patch+json",
    );
    expect(stale.status).toBe(409);
    await h.objects.delete(spec);
    expect((await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets/generic`)).status).toBe(404);
  });
});

describe("errors never crash the server", () => {
  it("answers 404, 405, 409 AlreadyExists and 400 as Status objects", async () => {
    const missing = await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets/nope`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `widgets.${GROUP} "nope" not found`,
      reason: "NotFound",
      details: { name: "nope", group: GROUP, kind: "widgets" },
      code: 404,
    });
    const coreMissing = await json(await h.http("/api/v1/namespaces/api/configmaps/nope"));
    expect(coreMissing.message).toBe('configmaps "nope" not found');
    expect(coreMissing.details).toEqual({ name: "nope", kind: "configmaps" });
    const method = await send("POST", `/apis/${GROUP}/v1/namespaces/api/widgets/x`, widget("x"));
    expect(method.status).toBe(405);
    expect((await json(method)).reason).toBe("MethodNotAllowed");
    await send("POST", `/apis/${GROUP}/v1/namespaces/api/widgets`, widget("dup"));
    const dup = await send("POST", `/apis/${GROUP}/v1/namespaces/api/widgets`, widget("dup"));
    expect(dup.status).toBe(409);
    expect((await json(dup)).reason).toBe("AlreadyExists");
    expect((await h.http("/apis/nothing.io/v1/things")).status).toBe(404);
  });

  it("rejects malformed bodies with 400 and keeps serving", async () => {
    const path = `/apis/${GROUP}/v1/namespaces/api/widgets`;
    const cases: [string, string, string][] = [
      ["POST", path, "{not json"],
      ["POST", path, "[1,2]"],
      ["POST", path, '"a string"'],
      ["POST", path, ""],
      ["POST", path, JSON.stringify({ apiVersion: "other.io/v1", kind: "Widget", metadata: { name: "m" } })],
      ["POST", path, JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: "nope" })],
      ["PATCH", `${path}/dup`, "{broken"],
      ["PATCH", `${path}/dup`, "[1]"],
      ["PUT", `${path}/dup`, "null"],
      ["PUT", `${path}/other`, JSON.stringify(widget("dup"))],
    ];
    for (const [method, p, body] of cases) {
      const ct =
        method === "PATCH"
          ? body.startsWith("[")
            ? "application/json-patch+json"
            : "application/merge-patch+json"
          : "application/json";
      const res = await send(method, p, body, ct);
      expect(res.status, `${method} ${body}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${body}`).toBeLessThan(500);
      expect((await json(res)).kind).toBe("Status");
    }
    const invalidName = await send("POST", path, widget("Bad_Name"));
    expect(invalidName.status).toBe(422);
    const body = await json(invalidName);
    expect(body.message).toMatch(
      /^Widget\.example\.svc\.io "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    expect(body.details.causes[0]).toMatchObject({ reason: "FieldValueInvalid", field: "metadata.name" });
    expect((await h.http(`${path}/%zz`)).status).toBe(404);
    const proto = await send(
      "PATCH",
      `${path}/dup`,
      '{"__proto__": {"polluted": true}, "spec": {"size": 3}}',
      "application/merge-patch+json",
    );
    expect(proto.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const unsupported = await send("POST", path, "x", "application/x-www-form-urlencoded");
    expect(unsupported.status).toBe(415);
    const huge = await send(
      "POST",
      path,
      JSON.stringify({ ...widget("huge"), spec: { blob: "x".repeat(4 * 1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
    expect((await h.http("/version")).status).toBe(200);
    const list = await json(await h.http(path));
    expect(
      list.items.every((i: { metadata: { name: string } }) => /^[a-z0-9.-]+$/.test(i.metadata.name)),
    ).toBe(true);
  });
});

describe("kubectl's Table output", () => {
  const accept =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
  it("answers lists and watches as Tables with the CRD's printer columns", async () => {
    await send("POST", `/apis/${GROUP}/v1/namespaces/api/widgets`, widget("tab"));
    const list = await json(
      await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets?fieldSelector=metadata.name%3Dtab`, {
        headers: { Accept: accept },
      }),
    );
    expect(list.kind).toBe("Table");
    expect(list.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(["Name", "Size"]);
    expect(list.rows.map((r: { cells: unknown[] }) => r.cells)).toEqual([["tab", 1]]);
    expect(list.rows[0].object).toMatchObject({ kind: "PartialObjectMetadata", metadata: { name: "tab" } });
    const full = await json(
      await h.http(`/apis/${GROUP}/v1/namespaces/api/widgets/tab?includeObject=Object`, {
        headers: { Accept: accept },
      }),
    );
    expect(full.rows[0].object).toMatchObject({ kind: "Widget", spec: { size: 1 } });
    const controller = new AbortController();
    const res = await h.http(
      `/apis/${GROUP}/v1/namespaces/api/widgets?watch=true&fieldSelector=metadata.name%3Dtab`,
      {
        headers: { Accept: accept },
        signal: controller.signal,
      },
    );
    const reader = res.body!.getReader();
    let text = "";
    const next = async () => {
      while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
      const line = text.slice(0, text.indexOf("\n"));
      text = text.slice(text.indexOf("\n") + 1);
      return JSON.parse(line);
    };
    const first = await next();
    expect(first).toMatchObject({ type: "ADDED", object: { kind: "Table", rows: [{ cells: ["tab", 1] }] } });
    expect(first.object.columnDefinitions).toHaveLength(2);
    await send(
      "PATCH",
      `/apis/${GROUP}/v1/namespaces/api/widgets/tab`,
      { spec: { size: 2 } },
      "application/merge-patch+json",
    );
    const second = await next();
    expect(second).toMatchObject({
      type: "MODIFIED",
      object: { kind: "Table", rows: [{ cells: ["tab", 2] }] },
    });
    expect(second.object.columnDefinitions ?? []).toEqual([]);
    controller.abort();
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
    expect(withRv.status).toBe(400);
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
