import { describe, expect, it } from "vitest";
import { hasTransitionRules } from "./cel-validate.ts";
import { admit, type JSONSchemaProps } from "./index.ts";
import { cause, obj, schemaWithSpec } from "./index-cases.testing.ts";

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
