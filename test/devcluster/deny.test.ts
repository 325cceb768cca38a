// The test-only deny hook: requests answered with kube-apiserver's 403, word for word.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DENIED_USER } from "../../src/devcluster/deny.ts";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

let h: Harness;
const widgets = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const deny = (body: unknown) =>
  h.http("/__dev/faults/deny", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  h = await startHarness();
  await createCrd(h, widgetCrd());
  const res = await h.http(widgets, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      apiVersion: `${GROUP}/v1`,
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size: 1 },
    }),
  });
  expect(res.status).toBe(201);
});

afterAll(async () => {
  await h?.cluster.close();
});

describe("the deny hook", () => {
  it("refuses a list at the cluster scope as kube-apiserver's RBAC does", async () => {
    expect((await deny({ rules: [{ verb: "list", resource: "widgets", group: GROUP }] })).status).toBe(200);
    const res = await h.http(`/apis/${GROUP}/v1/widgets`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `widgets.${GROUP} is forbidden: User "${DENIED_USER}" cannot list resource "widgets" in API group "${GROUP}" at the cluster scope`,
      reason: "Forbidden",
      // Go's omitempty: a refusal of no one object names none (measured on kube-apiserver 1.32).
      details: { group: GROUP, kind: "widgets" },
      code: 403,
    });
    // Other verbs pass: a get of one object, a watch.
    expect((await h.http(`${widgets}/w`)).status).toBe(200);
  });

  it("refuses only the list across namespaces with scope cluster, as a user with a Role per namespace is", async () => {
    await deny({ rules: [{ verb: "list", resource: "widgets", scope: "cluster" }] });
    expect((await h.http(`/apis/${GROUP}/v1/widgets`)).status).toBe(403);
    expect((await h.http(widgets)).status).toBe(200);
    await deny({ rules: [{ verb: "list", resource: "widgets", scope: "namespace" }] });
    expect((await h.http(`/apis/${GROUP}/v1/widgets`)).status).toBe(200);
    expect((await h.http(widgets)).status).toBe(403);
    const bad = await deny({ rules: [{ verb: "list", resource: "widgets", scope: "galaxy" }] });
    expect(((await bad.json()) as { message: string }).message).toBe(
      "rules.0.scope: must be cluster or namespace",
    );
    await deny({ rules: [] });
  });

  it("refuses a subresource in a namespace, naming the object and the user given", async () => {
    await deny({ rules: [{ verb: "patch", resource: "widgets", subresource: "status" }], user: "alice" });
    const res = await h.http(`${widgets}/w/status`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ status: {} }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(
      `widgets.${GROUP} "w" is forbidden: User "alice" cannot patch resource "widgets/status" in API group "${GROUP}" in the namespace "default"`,
    );
    // The object itself may still be patched.
    const main = await h.http(`${widgets}/w`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { labels: { a: "b" } } }),
    });
    expect(main.status).toBe(200);
  });

  it("refuses a watch, a core resource, and answers 403 before 404 for a resource nobody serves", async () => {
    await deny({
      rules: [
        { verb: "watch", resource: "*" },
        { verb: "get", resource: "secrets", group: "" },
      ],
    });
    expect((await h.http(`${widgets}?watch=true`)).status).toBe(403);
    const secret = await h.http("/api/v1/namespaces/default/secrets/creds");
    expect(secret.status).toBe(403);
    expect(((await secret.json()) as { message: string }).message).toBe(
      `secrets "creds" is forbidden: User "${DENIED_USER}" cannot get resource "secrets" in API group "" in the namespace "default"`,
    );
    await deny({ rules: [{ verb: "list", resource: "gizmos" }] });
    expect((await h.http(`/apis/${GROUP}/v1/gizmos`)).status).toBe(403);
  });

  it("shows the rules, is cleared by an empty list, and refuses a bad body naming the field", async () => {
    await deny({ rules: [{ verb: "list", resource: "widgets" }] });
    expect(await (await h.http("/__dev/faults/deny")).json()).toEqual({
      rules: [{ verb: "list", resource: "widgets" }],
    });
    await deny({ rules: [] });
    expect((await h.http(widgets)).status).toBe(200);
    const bad = await deny({ rules: [{ verb: "", resource: "widgets" }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe("rules.0.verb: must not be empty");
    expect((await deny({ rules: [], extra: 1 })).status).toBe(400);
  });

  it("needs the token, like any request", async () => {
    const res = await h.http("/__dev/faults/deny", { noAuth: true });
    expect(res.status).toBe(401);
  });

  it("is set at start by the option and from code", async () => {
    const other = await startHarness({ deny: [{ verb: "list", resource: "namespaces" }] });
    try {
      expect((await other.http("/api/v1/namespaces")).status).toBe(403);
      other.cluster.deny({ rules: [] });
      expect((await other.http("/api/v1/namespaces")).status).toBe(200);
    } finally {
      await other.cluster.close();
    }
  });
});
