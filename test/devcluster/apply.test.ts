import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

let h: Harness;
const collection = `/apis/${GROUP}/v1/namespaces/ssa/widgets`;

beforeAll(async () => {
  h = await startHarness();
  const crd = widgetCrd();
  // A CEL rule and a pattern, to see admission answer through the server.
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema as {
    properties: { spec: Record<string, unknown> };
  };
  schema.properties.spec["x-kubernetes-validations"] = [
    { rule: "!has(self.size) || self.size < 100", message: "size must be below 100" },
  ];
  (schema.properties.spec.properties as Record<string, Record<string, unknown>>).color!.enum = [
    "red",
    "blue",
    "green",
  ];
  await createCrd(h, crd);
  await h.core.createNamespace({ body: { metadata: { name: "ssa" } } });
});
afterAll(async () => {
  await h.cluster.close();
});

// biome-ignore lint/suspicious/noExplicitAny: responses are read as loose JSON
async function json(res: Response): Promise<any> {
  return res.json();
}

function apply(name: string, yaml: string, manager: string, extra = "") {
  return h.http(`${collection}/${name}?fieldManager=${manager}${extra}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/apply-patch+yaml" },
    body: yaml.startsWith("metadata:\n")
      ? `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: ${name}\n${yaml.slice("metadata:\n".length)}`
      : `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: ${name}\n${yaml}`,
  });
}

/** Creates a custom resource with a JSON POST to `path` (a collection, with query parameters). */
function post(path: string, kind: string, name: string, spec: Record<string, unknown>) {
  return h.http(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind, metadata: { name }, spec }),
  });
}

function mergePatch(name: string, body: unknown, manager: string, sub = "") {
  return h.http(`${collection}/${name}${sub}?fieldManager=${manager}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/merge-patch+json" },
    body: JSON.stringify(body),
  });
}

describe("server-side apply", () => {
  it("creates with an Apply managedFields entry, then answers 409 on another manager's field", async () => {
    const created = await apply("s1", "spec:\n  size: 1\n  color: red\n", "alice");
    expect(created.status).toBe(201);
    const body = await json(created);
    expect(body.metadata.managedFields).toEqual([
      {
        manager: "alice",
        operation: "Apply",
        apiVersion: `${GROUP}/v1`,
        time: expect.any(String),
        fieldsType: "FieldsV1",
        fieldsV1: { "f:spec": { "f:color": {}, "f:size": {} } },
      },
    ]);
    const clash = await apply("s1", "spec:\n  size: 2\n", "bob");
    expect(clash.status).toBe(409);
    expect(await json(clash)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.size',
      reason: "Conflict",
      details: {
        causes: [{ reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".spec.size" }],
      },
      code: 409,
    });
    // The same value is no conflict: both managers share the field.
    const shared = await apply("s1", "spec:\n  size: 1\n", "bob");
    expect(shared.status).toBe(200);
    const managers = (await json(shared)).metadata.managedFields.map((m: { manager: string }) => m.manager);
    expect(managers).toEqual(["alice", "bob"]);
  });

  it("lists several conflicts by manager, and force takes the fields", async () => {
    await apply("s2", "spec:\n  size: 1\n  color: red\n", "alice");
    const updated = await mergePatch("s2", { spec: { color: "blue" } }, "editor");
    expect(updated.status).toBe(200);
    const clash = await apply("s2", "spec:\n  size: 5\n  color: green\n", "bob");
    expect(clash.status).toBe(409);
    const body = await json(clash);
    expect(body.message).toBe(
      `Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.size\nconflicts with "editor" using ${GROUP}/v1:\n- .spec.color`,
    );
    expect(body.details.causes.map((c: { field: string }) => c.field).sort()).toEqual([
      ".spec.color",
      ".spec.size",
    ]);
    const forced = await apply("s2", "spec:\n  size: 5\n  color: green\n", "bob", "&force=true");
    expect(forced.status).toBe(200);
    const fb = await json(forced);
    expect(fb.spec).toEqual({ size: 5, color: "green" });
    const owners = Object.fromEntries(
      fb.metadata.managedFields.map((m: { manager: string; fieldsV1: unknown }) => [m.manager, m.fieldsV1]),
    );
    expect(owners.bob).toEqual({ "f:spec": { "f:color": {}, "f:size": {} } });
    expect(owners.alice).toBeUndefined();
    expect(owners.editor).toBeUndefined();
  });

  it("removes fields the applier stops applying, keeps fields others own", async () => {
    await apply(
      "s3",
      "metadata:\n  labels:\n    a: '1'\n    b: '2'\nspec:\n  size: 1\n  color: red\n",
      "alice",
    );
    await mergePatch("s3", { metadata: { labels: { c: "3" } } }, "other");
    const next = await json(
      await apply("s3", "metadata:\n  labels:\n    a: '1'\nspec:\n  size: 1\n", "alice"),
    );
    expect(next.metadata.labels).toEqual({ a: "1", c: "3" });
    expect(next.spec).toEqual({ size: 1 });
  });

  it("merges map lists per key on the status subresource and ignores spec there", async () => {
    await apply("s4", "spec:\n  size: 1\n", "alice");
    const first = await h.http(`${collection}/s4/status?fieldManager=ctrl-a&force=true`, {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: s4\nspec:\n  size: 99\nstatus:\n  conditions:\n  - type: Ready\n    status: "True"\n`,
    });
    expect(first.status).toBe(200);
    const second = await json(
      await h.http(`${collection}/s4/status?fieldManager=ctrl-b`, {
        method: "PATCH",
        headers: { "Content-Type": "application/apply-patch+yaml" },
        body: `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: s4\nstatus:\n  conditions:\n  - type: Synced\n    status: "False"\n`,
      }),
    );
    expect(second.spec.size).toBe(1);
    expect(second.status.conditions).toEqual([
      { type: "Ready", status: "True" },
      { type: "Synced", status: "False" },
    ]);
    const entry = second.metadata.managedFields.find((m: { manager: string }) => m.manager === "ctrl-b");
    expect(entry).toMatchObject({ operation: "Apply", subresource: "status" });
    expect(entry.fieldsV1).toEqual({
      "f:status": { "f:conditions": { 'k:{"type":"Synced"}': { ".": {}, "f:status": {}, "f:type": {} } } },
    });
  });

  it("requires fieldManager for apply and refuses force on other patches", async () => {
    const missing = await h.http(`${collection}/s5`, {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: s5\n`,
    });
    expect(missing.status).toBe(422);
    expect((await json(missing)).message).toContain(
      "fieldManager: Required value: is required for apply patch",
    );
    const forced = await h.http(`${collection}/s1?force=true`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: "{}",
    });
    expect(forced.status).toBe(422);
  });
});

describe("admission through the server", () => {
  it("answers schema and CEL rejections with the real 422 Status", async () => {
    const res = await post(collection, "Widget", "bad", { color: "pink" });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body).toMatchObject({
      kind: "Status",
      reason: "Invalid",
      code: 422,
      details: { name: "bad", group: GROUP, kind: "Widget" },
    });
    expect(body.message).toContain(
      `Widget.${GROUP} "bad" is invalid: [spec.color: Unsupported value: "pink": supported values: "red", "blue", "green", `,
    );
    expect(body.details.causes[0]).toEqual({
      reason: "FieldValueNotSupported",
      message: 'Unsupported value: "pink": supported values: "red", "blue", "green"',
      field: "spec.color",
    });
    const cel = await post(collection, "Widget", "big", { size: 500 });
    expect(cel.status).toBe(422);
    expect((await json(cel)).details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "object": size must be below 100',
        field: "spec",
      },
    ]);
  });

  it("prunes unknown fields with a warning, and rejects them with fieldValidation=Strict", async () => {
    const unknownField = { size: 1, extra: true };
    const strict = await post(`${collection}?fieldValidation=Strict`, "Widget", "unk", unknownField);
    expect(strict.status).toBe(400);
    expect((await json(strict)).message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.extra"',
    );
    const warn = await post(collection, "Widget", "unk", unknownField);
    expect(warn.status).toBe(201);
    expect(warn.headers.get("warning")).toBe('299 - "unknown field \\"spec.extra\\""');
    expect((await json(warn)).spec).toEqual({ size: 1 });
  });
});

describe("CEL rules on a status write", () => {
  const gizmos = `/apis/${GROUP}/v1/namespaces/ssa/gizmos`;
  const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.${GROUP}`;
  const sizeRule = (max: number) => [
    { rule: `!has(self.size) || self.size < ${max}`, message: `size must be below ${max}` },
  ];
  const phase = (p: string) =>
    h.http(`${gizmos}/g1/status`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ status: { phase: p } }),
    });

  it("warn about an unchanged spec only when it fails the rules (a CRD tightened since it was stored)", async () => {
    const crd = widgetCrd({ plural: "gizmos", kind: "Gizmo" });
    const spec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec as Record<string, unknown>;
    spec["x-kubernetes-validations"] = sizeRule(100);
    await createCrd(h, crd);
    const created = await post(gizmos, "Gizmo", "g1", { size: 50 });
    expect(created.status).toBe(201);
    const passing = await phase("one");
    expect(passing.status).toBe(200);
    expect(passing.headers.get("warning")).toBeNull();

    const stored = await json(await h.http(crdPath));
    stored.spec.versions[0].schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"] = sizeRule(10);
    const put = await h.http(crdPath, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(stored),
    });
    expect(put.status).toBe(200);
    // The object passed the old rules, not these: they run on its unchanged spec, and ratchet.
    for (const p of ["two", "three"]) {
      const warned = await phase(p);
      expect(warned.status).toBe(200);
      expect(warned.headers.get("warning")).toContain("size must be below 10");
    }
  });
});
