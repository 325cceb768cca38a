import { describe, expect, it } from "vitest";
import { admit } from "./index.ts";
import { obj, schemaWithSpec } from "./index-cases.testing.ts";

describe("pruning", () => {
  const schema = schemaWithSpec({
    type: "object",
    properties: {
      known: { type: "string" },
      nested: { type: "object", properties: { a: { type: "string" } } },
      free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      mixed: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        properties: { inner: { type: "object", properties: { k: { type: "string" } } } },
      },
      list: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      labels: {
        type: "object",
        additionalProperties: { type: "object", properties: { v: { type: "string" } } },
      },
    },
  });
  const cases: {
    reason: string;
    spec: Record<string, unknown>;
    want: Record<string, unknown>;
    unknown: string[];
  }[] = [
    {
      reason: "unknown top-level spec field dropped",
      spec: { known: "x", extra: 1 },
      want: { known: "x" },
      unknown: ["spec.extra"],
    },
    {
      reason: "unknown nested field dropped",
      spec: { nested: { a: "1", b: "2" } },
      want: { nested: { a: "1" } },
      unknown: ["spec.nested.b"],
    },
    {
      reason: "preserve-unknown-fields keeps everything below",
      spec: { free: { any: { deep: [1, { x: 2 }] } } },
      want: { free: { any: { deep: [1, { x: 2 }] } } },
      unknown: [],
    },
    {
      reason: "preserve-unknown-fields with properties still prunes inside known properties",
      spec: { mixed: { other: 1, inner: { k: "v", drop: 1 } } },
      want: { mixed: { other: 1, inner: { k: "v" } } },
      unknown: ["spec.mixed.inner.drop"],
    },
    {
      reason: "array items pruned with their index in the path",
      spec: { list: [{ a: "1", z: 1 }] },
      want: { list: [{ a: "1" }] },
      unknown: ["spec.list[0].z"],
    },
    {
      reason: "map values pruned against additionalProperties",
      spec: { labels: { k: { v: "1", w: "2" } } },
      want: { labels: { k: { v: "1" } } },
      unknown: ["spec.labels.k.w"],
    },
  ];
  it.each(cases)("$reason", ({ spec, want, unknown }) => {
    const r = admit({ schema, object: obj(spec) });
    expect(r.object.spec).toEqual(want);
    expect(r.unknownFields).toEqual(unknown);
    expect(r.causes).toEqual([]);
  });

  it("keeps apiVersion, kind and standard metadata, drops unknown metadata and unknown root fields", () => {
    const input = obj({ known: "x" }, { extraRoot: true });
    (input.metadata as Record<string, unknown>).labels = { a: "b" };
    (input.metadata as Record<string, unknown>).bogus = 1;
    const r = admit({ schema, object: input });
    expect(r.object).toEqual({
      apiVersion: "cloud.svc.io/v1alpha1",
      kind: "Route",
      metadata: { name: "r", namespace: "team-a", labels: { a: "b" } },
      spec: { known: "x" },
    });
    expect(r.unknownFields).toEqual(["metadata.bogus", "extraRoot"]);
  });

  it("never mutates its input", () => {
    const input = obj({ known: "x", extra: 1 });
    const copy = structuredClone(input);
    admit({ schema, object: input });
    expect(input).toEqual(copy);
  });
});

describe("defaulting", () => {
  const schema = schemaWithSpec({
    type: "object",
    properties: {
      deletionPolicy: { type: "string", enum: ["Delete", "Orphan"], default: "Delete" },
      accountRef: {
        type: "object",
        default: {},
        properties: { name: { type: "string", default: "default" } },
      },
      routes: {
        type: "array",
        items: { type: "object", properties: { priority: { type: "integer", default: 100 } } },
      },
      tags: {
        type: "object",
        additionalProperties: { type: "object", properties: { scope: { type: "string", default: "all" } } },
      },
      nullableNoDefault: { type: "string" },
      nullWithDefault: { type: "string", default: "d" },
      explicitNull: { type: "string", nullable: true, default: "d" },
    },
  });
  const cases: { reason: string; spec: Record<string, unknown>; want: Record<string, unknown> }[] = [
    {
      reason: "missing fields get defaults, recursively inside a defaulted object",
      spec: {},
      want: {
        deletionPolicy: "Delete",
        accountRef: { name: "default" },
        nullWithDefault: "d",
        explicitNull: "d",
      },
    },
    {
      reason: "present values are kept",
      spec: {
        deletionPolicy: "Orphan",
        accountRef: { name: "other" },
        nullWithDefault: "x",
        explicitNull: "y",
      },
      want: {
        deletionPolicy: "Orphan",
        accountRef: { name: "other" },
        nullWithDefault: "x",
        explicitNull: "y",
      },
    },
    {
      reason: "defaults apply inside array items and map values",
      spec: { routes: [{}, { priority: 5 }], tags: { a: {} } },
      want: {
        deletionPolicy: "Delete",
        accountRef: { name: "default" },
        nullWithDefault: "d",
        explicitNull: "d",
        routes: [{ priority: 100 }, { priority: 5 }],
        tags: { a: { scope: "all" } },
      },
    },
    {
      reason: "null of a non-nullable field: dropped without default, defaulted with one; nullable null kept",
      spec: { nullableNoDefault: null, nullWithDefault: null, explicitNull: null },
      want: {
        deletionPolicy: "Delete",
        accountRef: { name: "default" },
        nullWithDefault: "d",
        explicitNull: null,
      },
    },
  ];
  it.each(cases)("$reason", ({ spec, want }) => {
    const r = admit({ schema, object: obj(spec) });
    expect(r.causes).toEqual([]);
    expect(r.object.spec).toEqual(want);
  });

  it("validates defaulted values (a default is then checked like user input)", () => {
    const s = schemaWithSpec({
      type: "object",
      properties: { n: { type: "integer", minimum: 5, default: 1 } },
    });
    expect(admit({ schema: s, object: obj({}) }).causes[0]?.field).toBe("spec.n");
  });
});
