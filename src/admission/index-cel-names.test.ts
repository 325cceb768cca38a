import { describe, expect, it } from "vitest";
import { admit, checkCrd, type JSONSchemaProps } from "./index.ts";
import { meta, obj, schemaWithSpec } from "./index-cases.testing.ts";

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
