import { describe, expect, it } from "vitest";
import {
  collectFields,
  diffFields,
  FieldSet,
  hasValueAt,
  pathString,
  removeAt,
  type Shape,
  valueAt,
} from "./fieldset.ts";
import { deepEqual } from "./meta.ts";

const shape: Shape = {
  properties: {
    spec: {
      properties: { tags: { listType: "set" }, ports: { listType: "map", mapKeys: ["port"], items: {} } },
    },
  },
};

describe("field sets", () => {
  const object = { spec: { size: 1, tags: ["a", "b"], ports: [{ port: 80, name: "http" }], list: [1, 2] } };

  it("collects leaves, set members and map-list items in fieldsV1 notation", () => {
    expect(collectFields(object, shape).toJSON()).toEqual({
      "f:spec": {
        "f:list": {},
        "f:ports": { 'k:{"port":80}': { ".": {}, "f:name": {}, "f:port": {} } },
        "f:size": {},
        "f:tags": { 'v:"a"': {}, 'v:"b"': {} },
      },
    });
  });

  it("round-trips through fieldsV1 JSON", () => {
    const set = collectFields(object, shape);
    expect(FieldSet.fromJSON(set.toJSON()).toJSON()).toEqual(set.toJSON());
    expect(FieldSet.fromJSON(set.toJSON()).has(["f:spec", "f:size"])).toBe(true);
  });

  it("claims maps an update created (the '.' entry), never metadata itself", () => {
    const set = collectFields({ metadata: { labels: { a: "1" } }, spec: { x: 1 } }, {}, {});
    expect(set.toJSON()).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:a": {} } },
      "f:spec": { ".": {}, "f:x": {} },
    });
  });

  it("prints paths as the real server does and finds and removes values by path", () => {
    expect(pathString(["f:spec", "f:ports", 'k:{"port":80}', "f:name"])).toBe(".spec.ports[port=80].name");
    expect(pathString(["f:status", "f:conditions", 'k:{"type":"Ready"}'])).toBe(
      '.status.conditions[type="Ready"]',
    );
    expect(pathString(["f:metadata", "f:finalizers", 'v:"x"'])).toBe('.metadata.finalizers[="x"]');
    const copy = structuredClone(object);
    expect(valueAt(copy, ["f:spec", "f:ports", 'k:{"port":80}', "f:name"])).toBe("http");
    expect(removeAt(copy, ["f:spec", "f:tags", 'v:"a"'])).toBe(true);
    expect(copy.spec.tags).toEqual(["b"]);
  });
});

describe("diffFields", () => {
  // The definition diffFields implements in one walk: members of `after` (with the maps it
  // created) that are new or differ, and members of `before` that are gone. A list item that was
  // already there is not itself changed when only its fields are (structured-merge-diff's compare).
  function byDefinition(before: unknown, after: unknown) {
    const afterSet = collectFields(after, shape, before);
    const changed = afterSet
      .paths()
      .filter((p) => !(p.at(-1)!.startsWith("k:") && hasValueAt(before, p)))
      .filter((p) => !hasValueAt(before, p) || !deepEqual(valueAt(before, p), valueAt(after, p)))
      .map((p) => pathString(p));
    const gone = collectFields(before, shape)
      .paths()
      .filter((p) => !hasValueAt(after, p))
      .map((p) => pathString(p));
    return { changed: changed.sort(), gone: gone.sort() };
  }

  it.each([
    ["a new object", {}, { spec: { size: 1, tags: ["a"], ports: [{ port: 80, name: "x" }] } }],
    ["a changed scalar", { spec: { size: 1, color: "red" } }, { spec: { size: 2, color: "red" } }],
    ["a removed field", { spec: { size: 1, color: "red" } }, { spec: { size: 1 } }],
    ["set members", { spec: { tags: ["a", "b"] } }, { spec: { tags: ["b", "c"] } }],
    [
      "map-list items",
      {
        spec: {
          ports: [
            { port: 80, name: "a" },
            { port: 81, name: "b" },
          ],
        },
      },
      {
        spec: {
          ports: [
            { port: 80, name: "z" },
            { port: 82, name: "c" },
          ],
        },
      },
    ],
    ["a map replaced by a scalar", { spec: { size: { a: 1 } } }, { spec: { size: 3 } }],
    ["labels added", { metadata: {} }, { metadata: { labels: { a: "1" } } }],
  ])("%s", (_name, before, after) => {
    const { changed, removed } = diffFields(before, after, shape);
    const expected = byDefinition(before, after);
    expect(changed.map(pathString).sort()).toEqual(expected.changed);
    // Every member that is gone lies under a removed root.
    const roots = removed.map(pathString);
    for (const gone of expected.gone) expect(roots.some((r) => gone.startsWith(r))).toBe(true);
  });
});
