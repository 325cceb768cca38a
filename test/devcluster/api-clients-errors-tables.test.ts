import * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { h, json, send, useApiCluster, widget } from "./api-harness.ts";
import { GROUP } from "./helpers.ts";

useApiCluster();

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
    // As on the real server: a POST to an object's path creates (the body's name counts), a PUT
    // to the collection is not allowed.
    const named = await send("POST", `/apis/${GROUP}/v1/namespaces/api/widgets/x`, widget("y"));
    expect(named.status).toBe(201);
    expect((await json(named)).metadata.name).toBe("y");
    const method = await send("PUT", `/apis/${GROUP}/v1/namespaces/api/widgets`, widget("x"));
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
