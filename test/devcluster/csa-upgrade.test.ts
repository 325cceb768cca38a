/**
 * Server-side apply taking over an object made by client-side `kubectl apply`, through the exact
 * requests kubectl 1.32 sends (recorded with -v=9): the client-side create, the server-side apply,
 * the JSON patch with which kubectl moves the client-side manager's fields to the applier
 * (csaupgrade), and the apply it then sends again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrd, GROUP, type Harness, startHarness, widgetCrd } from "./helpers.ts";

const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
const API_VERSION = `${GROUP}/v1`;
const collection = `/apis/${GROUP}/v1/namespaces/csa/widgets`;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await createCrd(h, widgetCrd());
  await h.core.createNamespace({ body: { metadata: { name: "csa" } } });
});
afterAll(async () => {
  await h.cluster.close();
});

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
}
interface Widget {
  metadata: { resourceVersion: string; annotations?: Record<string, string>; managedFields: Entry[] };
  spec: Record<string, unknown>;
}

async function send(method: string, path: string, type: string, body: string): Promise<Widget> {
  const res = await h.http(path, { method, headers: { "Content-Type": type }, body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Widget;
}

/** `kubectl apply -f` of a new object: a create carrying the last-applied annotation. */
function clientSideCreate(name: string, size: number): Promise<Widget> {
  const config = `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"annotations":{},"name":"${name}","namespace":"csa"},"spec":{"size":${size}}}\n`;
  const body = {
    apiVersion: API_VERSION,
    kind: "Widget",
    metadata: { annotations: { [LAST_APPLIED]: config }, name, namespace: "csa" },
    spec: { size },
  };
  const query = "fieldManager=kubectl-client-side-apply&fieldValidation=Strict";
  return send("POST", `${collection}?${query}`, "application/json", JSON.stringify(body));
}

/** `kubectl apply --server-side`: the manifest as JSON, sent as an apply patch. */
function serverSideApply(name: string, manager: string, size: number, force: boolean): Promise<Widget> {
  const body = `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"${name}","namespace":"csa"},"spec":{"size":${size}}}`;
  const query = `fieldManager=${manager}&fieldValidation=Strict&force=${force}`;
  return send("PATCH", `${collection}/${name}?${query}`, "application/apply-patch+yaml", body);
}

/** kubectl's csaupgrade patch: the new managedFields, guarded by the resourceVersion it read. */
function upgradePatch(name: string, manager: string, entries: object[], resourceVersion: string) {
  const ops = [
    { op: "replace", path: "/metadata/managedFields", value: entries },
    { op: "replace", path: "/metadata/resourceVersion", value: resourceVersion },
  ];
  const query = `fieldManager=${manager}&fieldValidation=Strict`;
  return send("PATCH", `${collection}/${name}?${query}`, "application/json-patch+json", JSON.stringify(ops));
}

const entry = (manager: string, time: string, fieldsV1: Record<string, unknown>) => ({
  manager,
  operation: "Apply",
  apiVersion: API_VERSION,
  time,
  fieldsType: "FieldsV1",
  fieldsV1,
});
const CSA_FIELDS = {
  "f:metadata": { "f:annotations": { ".": {}, [`f:${LAST_APPLIED}`]: {} } },
  "f:spec": { ".": {}, "f:size": {} },
};
const owners = (w: Widget) =>
  Object.fromEntries(w.metadata.managedFields.map((e) => [e.manager, e.fieldsV1]));

describe("server-side apply over a client-side applied object", () => {
  it("with another field manager and --force-conflicts, the last-applied annotation goes", async () => {
    await clientSideCreate("w1", 3);
    const applied = await serverSideApply("w1", "other", 3, true);
    expect(owners(applied)).toEqual({
      "kubectl-client-side-apply": CSA_FIELDS,
      other: { "f:spec": { "f:size": {} } },
    });

    const time = applied.metadata.managedFields.find((e) => e.manager === "other")!.time;
    const upgraded = [entry("other", time, CSA_FIELDS)];
    const migrated = await upgradePatch("w1", "other", upgraded, applied.metadata.resourceVersion);
    // The request's managedFields replace the old ones: the patch changes nothing else.
    expect(migrated.metadata.managedFields).toEqual(upgraded);
    expect(migrated.metadata.annotations).toHaveProperty([LAST_APPLIED]);

    // Applied again, "other" no longer applies the annotation it now owns alone, so it goes.
    const final = await serverSideApply("w1", "other", 3, true);
    expect(final.metadata.annotations).toBeUndefined();
    expect(final.spec).toEqual({ size: 3 });
    expect(final.metadata.managedFields).toEqual([
      entry("other", expect.any(String), { "f:spec": { "f:size": {} } }),
    ]);
  });

  it("with the kubectl field manager, unchanged last-applied fields are no conflict and the annotation follows", async () => {
    await clientSideCreate("w2", 3);
    const applied = await serverSideApply("w2", "kubectl", 6, false);
    expect(applied.spec).toEqual({ size: 6 });
    const config = `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w2","namespace":"csa"},"spec":{"size":6}}`;
    expect(applied.metadata.annotations?.[LAST_APPLIED]).toBe(config);

    // kubectl keeps the annotation under a manager of its own, then migrates and applies again.
    const keep = {
      apiVersion: API_VERSION,
      kind: "Widget",
      metadata: { annotations: { [LAST_APPLIED]: config }, name: "w2", namespace: "csa" },
    };
    const kept = await send(
      "PATCH",
      `${collection}/w2?fieldManager=kubectl-last-applied&fieldValidation=Strict`,
      "application/apply-patch+yaml",
      JSON.stringify(keep),
    );
    const time = kept.metadata.managedFields[0]!.time;
    await upgradePatch(
      "w2",
      "kubectl",
      [
        entry("kubectl", time, CSA_FIELDS),
        entry("kubectl-last-applied", time, {
          "f:metadata": { "f:annotations": { [`f:${LAST_APPLIED}`]: {} } },
        }),
      ],
      kept.metadata.resourceVersion,
    );
    const final = await serverSideApply("w2", "kubectl", 6, false);
    expect(final.metadata.annotations).toEqual({ [LAST_APPLIED]: config });
    expect(owners(final)).toEqual({
      kubectl: { "f:spec": { "f:size": {} } },
      "kubectl-last-applied": { "f:metadata": { "f:annotations": { [`f:${LAST_APPLIED}`]: {} } } },
    });
  });

  it("keeps the conflict for fields whose live value is not the last-applied one", async () => {
    await clientSideCreate("w3", 3);
    await send(
      "PATCH",
      `${collection}/w3?fieldManager=editor`,
      "application/merge-patch+json",
      '{"spec":{"size":4}}',
    );
    const res = await h.http(`${collection}/w3?fieldManager=kubectl&force=false`, {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w3"},"spec":{"size":6}}`,
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(
      `Apply failed with 1 conflict: conflict with "editor" using ${API_VERSION}: .spec.size`,
    );
  });
});

describe("managedFields sent with a write", () => {
  it("reset ownership when empty, and are ignored on the status subresource", async () => {
    await clientSideCreate("w4", 3);
    const reset = await send(
      "PATCH",
      `${collection}/w4?fieldManager=x`,
      "application/merge-patch+json",
      '{"metadata":{"managedFields":[]}}',
    );
    expect(reset.metadata.managedFields).toBeUndefined();
    const mine = [entry("someone", "2026-01-01T00:00:00Z", { "f:spec": { "f:size": {} } })];
    const viaStatus = await send(
      "PATCH",
      `${collection}/w4/status?fieldManager=x`,
      "application/merge-patch+json",
      JSON.stringify({ metadata: { managedFields: mine }, status: { phase: "up" } }),
    );
    expect(viaStatus.metadata.managedFields.map((e) => e.manager)).toEqual(["x"]);
    const malformed = await send(
      "PATCH",
      `${collection}/w4?fieldManager=x`,
      "application/merge-patch+json",
      JSON.stringify({ metadata: { managedFields: [{ manager: "y", operation: "Bogus" }] } }),
    );
    expect(malformed.metadata.managedFields.map((e) => e.manager)).toEqual(["x"]);
  });
});
