import { describe, expect, it } from "vitest";
import { hasTransitionRules } from "./cel-validate.ts";
import { admit, checkCrd, type JSONSchemaProps } from "./index.ts";

const meta = { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } };

/** A status cause as the real server sends it in a 422's details. */
function cause(reason: string, message: string, field: string) {
  return { reason, message, field };
}

function schemaWithSpec(spec: JSONSchemaProps, status?: JSONSchemaProps): JSONSchemaProps {
  return { type: "object", properties: { ...meta, spec, ...(status ? { status } : {}) } } as JSONSchemaProps;
}

function obj(spec: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "cloud.svc.io/v1alpha1",
    kind: "Route",
    metadata: { name: "r", namespace: "team-a" },
    spec,
    ...extra,
  };
}

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

describe("CEL x-kubernetes-validations", () => {
  const routeSpec: JSONSchemaProps = {
    type: "object",
    required: ["nextHopType"],
    properties: {
      networkRef: { type: "object", properties: { name: { type: "string" } } },
      networkHref: { type: "string" },
      cidrBlock: { type: "string" },
      nextHopType: { type: "string", enum: ["ip_string", "url", "network_gateway", "href"] },
      nextHopIp: { type: "string" },
      nextHopUrl: { type: "string" },
      size: { type: "integer" },
      device: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: {
          type: "object",
          properties: { name: { type: "string" }, port: { type: "integer" } },
          "x-kubernetes-validations": [{ rule: "self.port == oldSelf.port", message: "port is immutable" }],
        },
      },
      labels: {
        type: "object",
        additionalProperties: { type: "string", "x-kubernetes-validations": [{ rule: "self.size() <= 5" }] },
      },
    },
    "x-kubernetes-validations": [
      {
        rule: "has(self.networkRef) != has(self.networkHref)",
        message: "exactly one of networkRef or networkHref must be set",
      },
      {
        rule: "self.nextHopType != 'ip_string' || has(self.nextHopIp)",
        message: "nextHopIp is required when nextHopType is ip_string",
        fieldPath: ".nextHopIp",
        reason: "FieldValueRequired",
      },
      {
        rule: "self.nextHopType == 'url' || !has(self.nextHopUrl)",
        messageExpression: "'nextHopUrl is only allowed with nextHopType url, not ' + self.nextHopType",
      },
      {
        rule: "!has(oldSelf.cidrBlock) || self.cidrBlock == oldSelf.cidrBlock",
        message: "cidrBlock is immutable",
      },
      { rule: "!has(self.size) || self.size >= 1" },
      {
        rule: "!has(self.device) || self.device.matches('^/dev/xvd[bcefghij]$')",
        message: "device must be /dev/xvd[b-j]",
      },
      {
        rule: "!has(self.tags) || self.tags.all(t, t.startsWith('k-')) && self.tags.exists(t, t.endsWith('x'))",
        message: "bad tags",
      },
      {
        rule: "!has(self.size) || (self.size > 10 ? self.size % 2 == 0 : true)",
        reason: "FieldValueForbidden",
        message: "large sizes must be even",
      },
    ],
  };
  const schema = schemaWithSpec(routeSpec);
  const base = { networkRef: { name: "main" }, nextHopType: "network_gateway" };

  const cases: {
    reason: string;
    spec: Record<string, unknown>;
    old?: Record<string, unknown>;
    want: { reason: string; message: string; field: string }[];
  }[] = [
    { reason: "a valid spec passes every rule", spec: base, want: [] },
    {
      reason: "mutual exclusion ref/href: both set",
      spec: { ...base, networkHref: "/api/networks/1" },
      want: [
        cause(
          "FieldValueInvalid",
          'Invalid value: "object": exactly one of networkRef or networkHref must be set',
          "spec",
        ),
      ],
    },
    {
      reason: "mutual exclusion ref/href: neither set",
      spec: { nextHopType: "network_gateway" },
      want: [
        cause(
          "FieldValueInvalid",
          'Invalid value: "object": exactly one of networkRef or networkHref must be set',
          "spec",
        ),
      ],
    },
    {
      reason: "conditional rule with fieldPath and reason FieldValueRequired",
      spec: { ...base, nextHopType: "ip_string" },
      want: [
        cause(
          "FieldValueRequired",
          "Required value: nextHopIp is required when nextHopType is ip_string",
          "spec.nextHopIp",
        ),
      ],
    },
    {
      reason: "messageExpression builds the message",
      spec: { ...base, nextHopUrl: "http://x" },
      want: [
        cause(
          "FieldValueInvalid",
          'Invalid value: "object": nextHopUrl is only allowed with nextHopType url, not network_gateway',
          "spec",
        ),
      ],
    },
    {
      reason: "a rule without message: 'failed rule: <rule>'",
      spec: { ...base, size: 0 },
      want: [
        cause(
          "FieldValueInvalid",
          'Invalid value: "object": failed rule: !has(self.size) || self.size >= 1',
          "spec",
        ),
      ],
    },
    {
      reason: "matches() with RE2",
      spec: { ...base, device: "/dev/sda" },
      want: [cause("FieldValueInvalid", 'Invalid value: "object": device must be /dev/xvd[b-j]', "spec")],
    },
    { reason: "all/exists/startsWith/endsWith", spec: { ...base, tags: ["k-a", "k-x"] }, want: [] },
    {
      reason: "all fails",
      spec: { ...base, tags: ["k-a", "x"] },
      want: [cause("FieldValueInvalid", 'Invalid value: "object": bad tags', "spec")],
    },
    {
      reason: "ternary and reason FieldValueForbidden",
      spec: { ...base, size: 11 },
      want: [cause("FieldValueForbidden", "Forbidden: large sizes must be even", "spec")],
    },
    {
      reason: "transition rule skipped on create (no oldSelf)",
      spec: { ...base, cidrBlock: "10.0.0.0/16" },
      want: [],
    },
    {
      reason: "transition rule: immutable field changed on update",
      spec: { ...base, cidrBlock: "10.1.0.0/16" },
      old: { ...base, cidrBlock: "10.0.0.0/16" },
      want: [cause("FieldValueInvalid", 'Invalid value: "object": cidrBlock is immutable', "spec")],
    },
    {
      reason: "transition rule: unchanged on update",
      spec: { ...base, cidrBlock: "10.0.0.0/16" },
      old: { ...base, cidrBlock: "10.0.0.0/16" },
      want: [],
    },
    {
      reason: "transition rule in a listType=map item correlates by key",
      spec: {
        ...base,
        ports: [
          { name: "http", port: 81 },
          { name: "new", port: 1 },
        ],
      },
      old: { ...base, ports: [{ name: "http", port: 80 }] },
      want: [cause("FieldValueInvalid", 'Invalid value: "object": port is immutable', "spec.ports[0]")],
    },
    {
      reason: "rules on map values use the key in the path",
      spec: { ...base, labels: { ok: "abc", bad: "abcdefg" } },
      want: [
        cause(
          "FieldValueInvalid",
          'Invalid value: "string": failed rule: self.size() <= 5',
          "spec.labels[bad]",
        ),
      ],
    },
    {
      reason: "ratcheting: an unchanged invalid value on update is not an error",
      spec: { ...base, size: 0, device: "/dev/xvdb" },
      old: { ...base, size: 0, device: "/dev/xvdc" },
      want: [
        cause(
          "FieldValueInvalid",
          'Invalid value: "object": failed rule: !has(self.size) || self.size >= 1',
          "spec",
        ),
      ],
    },
    {
      reason: "schema errors of blocking kinds skip CEL and say so",
      spec: { networkRef: { name: "a" }, networkHref: "/x" },
      want: [
        cause("FieldValueRequired", "Required value", "spec.nextHopType"),
        cause(
          "FieldValueInvalid",
          "Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
          "<nil>",
        ),
      ],
    },
  ];
  it.each(cases)("$reason", ({ spec, old, want }) => {
    const r = admit({ schema, object: obj(spec), oldObject: old ? obj(old) : undefined });
    expect(r.causes).toEqual(want);
  });

  /** An object field whose rule fails on n = 0. */
  const nAboveOne: JSONSchemaProps = {
    type: "object",
    properties: { n: { type: "integer" } },
    "x-kubernetes-validations": [{ rule: "self.n > 1" }],
  };

  it("ratchets a failing rule on an unchanged subtree into a warning", () => {
    const s = schemaWithSpec({
      type: "object",
      properties: {
        a: nAboveOne,
        b: { type: "string" },
      },
    });
    const old = obj({ a: { n: 0 }, b: "x" });
    const r = admit({ schema: s, object: obj({ a: { n: 0 }, b: "y" }), oldObject: old });
    expect(r.causes).toEqual([]);
    expect(r.warnings).toEqual([`spec.a: Invalid value: "object": failed rule: self.n > 1`]);
    // A warning is not a pass: the stored object will not skip these rules on its next write.
    expect(r.rulesPassed).toBe(false);
    expect(admit({ schema: s, object: obj({ a: { n: 2 } }) }).rulesPassed).toBe(true);
  });

  it("an old object that passed every rule: an unchanged subtree is not evaluated again, a transition rule is", () => {
    const s = schemaWithSpec(
      {
        type: "object",
        properties: {
          // Fails on spec.a.n = 0: were it evaluated, the unchanged subtree would warn.
          a: nAboveOne,
          c: {
            type: "object",
            properties: { m: { type: "integer" } },
            "x-kubernetes-validations": [{ rule: "self.m != oldSelf.m", message: "m must change" }],
          },
        },
      },
      { type: "object", properties: { x: { type: "integer" } } },
    );
    const spec = { a: { n: 0 }, c: { m: 1 } };
    const old = obj(spec, { status: { x: 1 } });
    const next = () => obj(spec, { status: { x: 2 } });
    const fresh = admit({ schema: s, object: next(), oldObject: old });
    expect(fresh.warnings).toEqual([`spec.a: Invalid value: "object": failed rule: self.n > 1`]);
    expect(fresh.rulesPassed).toBe(false);
    const trusted = admit({ schema: s, object: next(), oldObject: old, oldPassed: true });
    expect(trusted.warnings).toEqual([]);
    expect(trusted.causes).toEqual([
      cause("FieldValueInvalid", 'Invalid value: "object": m must change', "spec.c"),
    ]);
  });

  it("immutability rules are true on an unchanged value and need no evaluation there; other oldSelf rules do", () => {
    const node = (rule: string): JSONSchemaProps => ({
      type: "object",
      properties: { a: { type: "object", "x-kubernetes-validations": [{ rule }] } },
    });
    expect(hasTransitionRules(node("self == oldSelf"))).toBe(false);
    expect(
      hasTransitionRules(node("has(oldSelf.f) == has(self.f) && (!has(self.f) || self.f == oldSelf.f)")),
    ).toBe(false);
    expect(
      hasTransitionRules(node("has(oldSelf.f) == has(self.g) && (!has(self.f) || self.f == oldSelf.f)")),
    ).toBe(true);
    expect(hasTransitionRules(node("self != oldSelf"))).toBe(true);
    expect(hasTransitionRules(node("self.n > 1"))).toBe(false);
  });

  it("root-level rules report the field <nil> and can read metadata.name", () => {
    const s: JSONSchemaProps = {
      ...schemaWithSpec({ type: "object", properties: { name: { type: "string" } } }),
      "x-kubernetes-validations": [{ rule: "self.metadata.name.size() <= 3", message: "name too long" }],
    };
    const r = admit({ schema: s, object: { ...obj({}), metadata: { name: "toolong" } } });
    expect(r.causes).toEqual([cause("FieldValueInvalid", 'Invalid value: "object": name too long', "<nil>")]);
  });

  it("a rule that does not compile (a CRD that bypassed checkCrd) is reported on the object, not thrown", () => {
    const s = schemaWithSpec({
      type: "object",
      properties: { a: { type: "string" } },
      "x-kubernetes-validations": [{ rule: "self.a ==" }],
    });
    const causes = admit({ schema: s, object: obj({ a: "x" }) }).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]!.field).toBe("spec");
    expect(causes[0]!.message).toMatch(
      /^Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:/,
    );
  });

  it("a runtime error names the rule (no such key)", () => {
    const s = schemaWithSpec({
      type: "object",
      properties: { a: { type: "string" } },
      "x-kubernetes-validations": [{ rule: "self.a == 'x'" }],
    });
    expect(admit({ schema: s, object: obj({}) }).causes).toEqual([
      cause(
        "FieldValueInvalid",
        "Invalid value: \"object\": no such key: a evaluating rule: self.a == 'x'",
        "spec",
      ),
    ]);
  });

  it("integers are CEL ints and numbers CEL doubles (k8s list library: sum, isSorted)", () => {
    const s = schemaWithSpec({
      type: "object",
      properties: {
        counts: { type: "array", items: { type: "integer" } },
        ratio: { type: "number" },
      },
      "x-kubernetes-validations": [
        {
          rule: "self.counts.sum() == 6 && self.counts.isSorted() && self.counts.max() == 3",
          message: "list",
        },
        { rule: "self.ratio > 0.5", message: "ratio" },
      ],
    });
    expect(admit({ schema: s, object: obj({ counts: [1, 2, 3], ratio: 1 }) }).causes).toEqual([]);
    expect(
      admit({ schema: s, object: obj({ counts: [3, 2, 1], ratio: 0.25 }) }).causes.map((c) => c.message),
    ).toEqual(['Invalid value: "object": list', 'Invalid value: "object": ratio']);
  });
});

describe("checkCrd", () => {
  function crd(overrides: { spec?: Record<string, unknown>; schema?: JSONSchemaProps; name?: string } = {}) {
    return {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: overrides.name ?? "routes.cloud.svc.io" },
      spec: {
        group: "cloud.svc.io",
        scope: "Namespaced",
        names: { plural: "routes", singular: "route", kind: "Route", listKind: "RouteList" },
        versions: [
          {
            name: "v1alpha1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema:
                overrides.schema ?? schemaWithSpec({ type: "object", properties: { a: { type: "string" } } }),
            },
          },
        ],
        ...overrides.spec,
      },
    };
  }
  const S = "spec.versions[0].schema.openAPIV3Schema";
  const cases: {
    reason: string;
    input: Record<string, unknown>;
    want: { field: string; reason: string; message?: string }[];
  }[] = [
    { reason: "a well-formed CRD passes", input: crd(), want: [] },
    {
      reason: "missing group and names",
      input: crd({ spec: { group: undefined, names: {} } }),
      want: [
        { field: "spec.group", reason: "FieldValueRequired", message: "Required value" },
        { field: "spec.names.plural", reason: "FieldValueRequired" },
        { field: "spec.names.kind", reason: "FieldValueRequired" },
      ],
    },
    {
      reason: "name must be plural.group",
      input: crd({ name: "wrong.cloud.svc.io" }),
      want: [
        {
          field: "metadata.name",
          reason: "FieldValueInvalid",
          message: 'Invalid value: "wrong.cloud.svc.io": must be spec.names.plural+"."+spec.group',
        },
      ],
    },
    {
      reason: "group without a dot",
      input: crd({ spec: { group: "local" }, name: "routes.local" }),
      want: [
        {
          field: "spec.group",
          reason: "FieldValueInvalid",
          message: 'Invalid value: "local": should be a domain with at least one dot',
        },
      ],
    },
    {
      reason: "unsupported scope",
      input: crd({ spec: { scope: "Global" } }),
      want: [
        {
          field: "spec.scope",
          reason: "FieldValueNotSupported",
          message: 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
        },
      ],
    },
    {
      reason: "no storage version",
      input: crd({
        spec: {
          versions: [
            { name: "v1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
          ],
        },
      }),
      want: [
        {
          field: "spec.versions",
          reason: "FieldValueInvalid",
          message: 'Invalid value: ["v1"]: must have exactly one version marked as storage version',
        },
      ],
    },
    {
      reason: "two storage versions",
      input: crd({
        spec: {
          versions: [
            { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } },
            { name: "v2", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } },
          ],
        },
      }),
      want: [{ field: "spec.versions", reason: "FieldValueInvalid" }],
    },
    {
      reason: "missing schema",
      input: crd({ spec: { versions: [{ name: "v1", served: true, storage: true }] } }),
      want: [{ field: S, reason: "FieldValueRequired", message: "Required value: schemas are required" }],
    },
    {
      reason: "non-structural: property without type",
      input: crd({ schema: schemaWithSpec({ type: "object", properties: { a: {} } }) }),
      want: [
        {
          field: `${S}.properties[spec].properties[a].type`,
          reason: "FieldValueRequired",
          message: "Required value: must not be empty for specified object fields",
        },
      ],
    },
    {
      reason: "non-structural: root not an object",
      input: crd({ schema: { type: "string" } }),
      want: [
        {
          field: `${S}.type`,
          reason: "FieldValueInvalid",
          message: 'Invalid value: "string": must be object at the root',
        },
      ],
    },
    {
      reason: "properties and additionalProperties together",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string" } },
          additionalProperties: { type: "string" },
        }),
      }),
      want: [{ field: `${S}.properties[spec].additionalProperties`, reason: "FieldValueForbidden" }],
    },
    {
      reason: "array without items",
      input: crd({ schema: schemaWithSpec({ type: "object", properties: { l: { type: "array" } } }) }),
      want: [
        {
          field: `${S}.properties[spec].properties[l].items`,
          reason: "FieldValueRequired",
          message: "Required value: must be specified",
        },
      ],
    },
    {
      reason: "pattern that is not RE2",
      input: crd({
        schema: schemaWithSpec({ type: "object", properties: { a: { type: "string", pattern: "^(?=a)" } } }),
      }),
      want: [{ field: `${S}.properties[spec].properties[a].pattern`, reason: "FieldValueInvalid" }],
    },
    {
      reason: "default that violates its own schema",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string", enum: ["x"], default: "y" } },
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].properties[a].default`,
          reason: "FieldValueNotSupported",
          message: 'Unsupported value: "y": supported values: "x"',
        },
      ],
    },
    {
      reason:
        "a CEL rule referring to a field the schema lacks does not compile; the cause names the rule's path",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "self.nope == 'x'" }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].x-kubernetes-validations[0].rule`,
          reason: "FieldValueInvalid",
          message:
            'Invalid value: apiextensions.ValidationRule{Rule:"self.nope == \'x\'", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'nope\'\n | self.nope == \'x\'\n | ....^',
        },
      ],
    },
    {
      reason: "a CEL syntax error",
      input: crd({
        schema: schemaWithSpec({ type: "object", "x-kubernetes-validations": [{ rule: "self.a ==" }] }),
      }),
      want: [
        { field: `${S}.properties[spec].x-kubernetes-validations[0].rule`, reason: "FieldValueInvalid" },
      ],
    },
    {
      reason: "an undeclared variable",
      input: crd({
        schema: schemaWithSpec({ type: "object", "x-kubernetes-validations": [{ rule: "other == 1" }] }),
      }),
      want: [
        { field: `${S}.properties[spec].x-kubernetes-validations[0].rule`, reason: "FieldValueInvalid" },
      ],
    },
    {
      reason: "oldSelf under an atomic list item is uncorrelatable",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: {
            l: {
              type: "array",
              items: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
            },
          },
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].properties[l].items.x-kubernetes-validations[0].rule`,
          reason: "FieldValueInvalid",
        },
      ],
    },
    {
      reason: "an overload cel-go rejects at compile time: int compared with string",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { size: { type: "integer" } },
          "x-kubernetes-validations": [{ rule: "self.size == 'x'" }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].x-kubernetes-validations[0].rule`,
          reason: "FieldValueInvalid",
          message:
            "Invalid value: apiextensions.ValidationRule{Rule:\"self.size == 'x'\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(int, string)'\n | self.size == 'x'\n | ..........^",
        },
      ],
    },
    {
      reason: "equality does not mix int and double, arithmetic does not mix int and string",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { ratio: { type: "number" }, name: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "self.ratio == 1" }, { rule: "self.name + 1 == 'a1'" }],
        }),
      }),
      want: [
        { field: `${S}.properties[spec].x-kubernetes-validations[0].rule`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].x-kubernetes-validations[1].rule`, reason: "FieldValueInvalid" },
      ],
    },
    {
      reason:
        "valid typed rules compile: cross-type numeric ordering, ternaries, sizes, int-or-string as dyn, null checks",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: {
            size: { type: "integer" },
            ratio: { type: "number" },
            port: { "x-kubernetes-int-or-string": true },
            tags: { type: "array", items: { type: "string" } },
            a: { type: "object", properties: {} },
            b: { type: "string", nullable: true },
          },
          "x-kubernetes-validations": [
            { rule: "self.size > 1.5 && self.ratio < 3" },
            { rule: "(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1" },
            { rule: "self.tags.size() < 10 && self.tags.all(t, t.size() > 0)" },
            { rule: "self.port == 80 || self.port == 'http'" },
            { rule: "self.b != null" },
            { rule: "self.tags[0] == 'x' || self.tags.exists(t, t.startsWith('k'))" },
          ],
        }),
      }),
      want: [],
    },
    {
      reason: "printer columns: unsupported type, missing jsonPath, jsonPath without the leading dot",
      input: crd({
        spec: {
          versions: [
            {
              name: "v1alpha1",
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: "object" } },
              additionalPrinterColumns: [
                { name: "A", type: "text", jsonPath: ".spec.a" },
                { name: "B", type: "string" },
                { name: "C", type: "string", jsonPath: "spec.a" },
                { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
              ],
            },
          ],
        },
      }),
      want: [
        {
          field: "spec.versions[0].additionalPrinterColumns[0].type",
          reason: "FieldValueNotSupported",
          message:
            'Unsupported value: "text": supported values: "boolean", "date", "integer", "number", "string"',
        },
        { field: "spec.versions[0].additionalPrinterColumns[1].jsonPath", reason: "FieldValueRequired" },
        { field: "spec.versions[0].additionalPrinterColumns[2].jsonPath", reason: "FieldValueInvalid" },
      ],
    },
    {
      reason: "keywords of the wrong JSON type (the real server fails to decode them) and tuple items",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          required: "a" as unknown as string[],
          properties: {
            a: { type: "string", maxLength: "3" as unknown as number },
            l: { type: "array", items: [{ type: "string" }] as unknown as JSONSchemaProps },
          },
          "x-kubernetes-validations": [{ rule: 1 as unknown as string }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].required`,
          reason: "FieldValueInvalid",
          message: 'Invalid value: "a": must be a list of strings',
        },
        { field: `${S}.properties[spec].properties[a].maxLength`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].properties[l].items`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].x-kubernetes-validations`, reason: "FieldValueInvalid" },
        { field: `${S}.properties[spec].properties[l].items`, reason: "FieldValueRequired" },
      ],
    },
    {
      reason: "invalid rule reason and fieldPath",
      input: crd({
        schema: schemaWithSpec({
          type: "object",
          properties: { a: { type: "string" } },
          "x-kubernetes-validations": [{ rule: "true", reason: "Nope", fieldPath: ".missing" }],
        }),
      }),
      want: [
        {
          field: `${S}.properties[spec].x-kubernetes-validations[0].reason`,
          reason: "FieldValueNotSupported",
        },
        { field: `${S}.properties[spec].x-kubernetes-validations[0].fieldPath`, reason: "FieldValueInvalid" },
      ],
    },
  ];
  it.each(cases)("$reason", ({ input, want }) => {
    const got = checkCrd(input);
    expect(got.map((c) => ({ field: c.field, reason: c.reason }))).toEqual(
      want.map((w) => ({ field: w.field, reason: w.reason })),
    );
    want.forEach((w, i) => {
      if (w.message !== undefined) expect(got[i]?.message).toBe(w.message);
    });
  });
});

describe("CEL field name escaping (k8s.io/apiserver/pkg/cel.Escape)", () => {
  const schema: JSONSchemaProps = {
    type: "object",
    properties: {
      ...meta,
      spec: {
        type: "object",
        properties: {
          namespace: { type: "string" },
          "x-name": { type: "string" },
          "a.b": { type: "integer" },
        },
        "x-kubernetes-validations": [
          {
            rule: "self.__namespace__ == 'ns' && self.x__dash__name == 'n' && self.a__dot__b == 1",
            message: "escaped",
          },
        ],
      },
    },
  } as JSONSchemaProps;
  it("exposes reserved words and special characters under their escaped names", () => {
    expect(admit({ schema, object: obj({ namespace: "ns", "x-name": "n", "a.b": 1 }) }).causes).toEqual([]);
    expect(
      admit({ schema, object: obj({ namespace: "other", "x-name": "n", "a.b": 1 }) }).causes[0]?.message,
    ).toBe('Invalid value: "object": escaped');
  });
  it("accepts the escaped names at CRD creation", () => {
    const crd = {
      metadata: { name: "xs.a.io" },
      spec: {
        group: "a.io",
        scope: "Namespaced",
        names: { plural: "xs", kind: "X" },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      },
    };
    expect(checkCrd(crd)).toEqual([]);
  });
});

describe("CEL bindings of formatted strings", () => {
  const schema = schemaWithSpec({
    type: "object",
    properties: {
      startsAt: { type: "string", format: "date-time" },
      endsAt: { type: "string", format: "date-time" },
      day: { type: "string", format: "date" },
      ttl: { type: "string", format: "duration" },
      blob: { type: "string", format: "byte" },
    },
    "x-kubernetes-validations": [
      { rule: "!has(self.endsAt) || self.endsAt > self.startsAt", message: "endsAt must be after startsAt" },
      { rule: "!has(self.ttl) || self.ttl <= duration('24h')", message: "ttl at most a day" },
      { rule: "!has(self.day) || self.day.getFullYear() >= 2020", message: "day too old" },
      { rule: "!has(self.blob) || size(self.blob) <= 3", message: "blob too big" },
    ],
  });
  const cases: { reason: string; spec: Record<string, unknown>; want: string[] }[] = [
    {
      reason: "date-time values compare as timestamps",
      spec: { startsAt: "2026-01-01T10:00:00Z", endsAt: "2026-01-01T11:00:00+00:00" },
      want: [],
    },
    {
      reason: "a timestamp before another fails the rule",
      spec: { startsAt: "2026-01-01T10:00:00Z", endsAt: "2026-01-01T09:00:00Z" },
      want: ['Invalid value: "object": endsAt must be after startsAt'],
    },
    {
      reason: "durations compare as durations",
      spec: { startsAt: "2026-01-01T10:00:00Z", ttl: "25h" },
      want: ['Invalid value: "object": ttl at most a day'],
    },
    {
      reason: "dates are timestamps at midnight",
      spec: { startsAt: "2026-01-01T10:00:00Z", day: "2019-05-01" },
      want: ['Invalid value: "object": day too old'],
    },
    {
      reason: "byte strings are bytes (size in bytes, not base64 characters)",
      spec: { startsAt: "2026-01-01T10:00:00Z", blob: "YWJj" },
      want: [],
    },
  ];
  it.each(cases)("$reason", ({ spec, want }) => {
    expect(admit({ schema, object: obj(spec) }).causes.map((c) => c.message)).toEqual(want);
  });
});

describe("robustness", () => {
  it("admits against a schema with keywords of the wrong type without throwing (they are ignored)", () => {
    const schema = {
      type: "object",
      properties: {
        ...meta,
        spec: {
          type: "object",
          required: "name",
          enum: "x",
          properties: { name: { type: "string", pattern: 5 } },
          "x-kubernetes-validations": "nope",
        },
      },
    } as unknown as JSONSchemaProps;
    const r = admit({ schema, object: obj({ name: "a" }) });
    expect(r.causes).toEqual([]);
    expect(r.object.spec).toEqual({ name: "a" });
  });
});

describe("ownership of the input object", () => {
  const schema = schemaWithSpec({
    type: "object",
    properties: { known: { type: "string" }, size: { type: "integer", default: 3 } },
  });

  it("never changes the input unless it is handed over", () => {
    const input = obj({ known: "x", extra: 1 });
    const result = admit({ schema, object: input });
    expect(input.spec).toEqual({ known: "x", extra: 1 });
    expect(result.object.spec).toEqual({ known: "x", size: 3 });
    expect(result.unknownFields).toEqual(["spec.extra"]);
  });

  it("prunes and defaults a handed-over object in place, with the same answer", () => {
    const input = obj({ known: "x", extra: 1 });
    const result = admit({ schema, object: input, owned: true });
    expect(result.object).toBe(input);
    expect(input.spec).toEqual({ known: "x", size: 3 });
    expect(result.unknownFields).toEqual(["spec.extra"]);
  });
});
