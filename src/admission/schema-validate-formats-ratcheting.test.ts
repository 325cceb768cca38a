import { describe, expect, it } from "vitest";
import { admit } from "./index.ts";
import { cause, causesFor, root } from "./schema-validate-cases.testing.ts";
import type { JSONSchemaProps } from "./types.ts";

describe("formats validated by the apiserver", () => {
  const table: [string, string, boolean, string][] = [
    ["ipv4", "10.0.0.1", true, "dotted quad"],
    ["ipv4", "10.0.0.256", false, "octet out of range"],
    ["ipv4", "::1", false, "an IPv6 address is not ipv4"],
    ["ipv6", "fe80::1", true, "compressed v6"],
    ["ipv6", "10.0.0.1", false, "v4 is not ipv6"],
    ["cidr", "10.10.0.0/16", true, "v4 CIDR"],
    ["cidr", "10.10.0.0/33", false, "prefix too long"],
    ["cidr", "fd00::/64", true, "v6 CIDR"],
    ["uuid", "123e4567-e89b-12d3-a456-426614174000", true, "canonical uuid"],
    ["uuid", "not-a-uuid", false, "garbage"],
    ["date", "2024-02-29", true, "leap day"],
    ["date", "2023-02-29", false, "not a leap year"],
    ["date-time", "2024-01-02T03:04:05Z", true, "RFC3339"],
    ["date-time", "2024-01-02", false, "a date is not a date-time"],
    ["byte", "aGVsbG8=", true, "base64"],
    ["byte", "hello!", false, "not base64"],
    ["hostname", "api.example.com", true, "FQDN"],
    ["hostname", "-bad-", false, "leading hyphen"],
    ["uri", "https://x.io/a", true, "absolute URI"],
    ["uri", "relative/path", false, "relative reference"],
    ["email", "a@b.io", true, "address"],
    ["email", "nope", false, "no @"],
    ["int32", "whatever", true, "numeric formats are stripped by the server, never validated"],
    ["k8s-short-name", "my-name", true, "DNS-1123 label"],
    ["k8s-short-name", "My_Name", false, "not a DNS label"],
  ];
  it.each(table)("%s %j valid=%s (%s)", (format, value, valid) => {
    const causes = causesFor({ type: "string", format }, value);
    expect(causes.length === 0).toBe(valid);
    if (!valid) {
      expect(causes[0]).toEqual(
        cause(
          "FieldValueTypeInvalid",
          `Invalid value: ${JSON.stringify(value)}: spec.field in body must be of type ${format}: ${JSON.stringify(value)}`,
          "spec.field",
        ),
      );
    }
  });
});

describe("ratcheting on update", () => {
  const schema = root({ type: "string", maxLength: 3 });
  const make = (field: string, other = "a") => ({
    apiVersion: "g.io/v1",
    kind: "K",
    metadata: { name: "x" },
    spec: { field, other },
  });
  const withOther = {
    ...schema,
    properties: {
      ...schema.properties,
      spec: {
        ...schema.properties!.spec!,
        properties: { field: { type: "string", maxLength: 3 }, other: { type: "string" } },
      },
    },
  } as JSONSchemaProps;

  it("keeps rejecting an invalid value on create", () => {
    expect(admit({ schema: withOther, object: make("toolong") }).causes).toHaveLength(1);
  });
  it("accepts an update that leaves an already-invalid value unchanged", () => {
    const old = make("toolong", "a");
    expect(admit({ schema: withOther, object: make("toolong", "b"), oldObject: old }).causes).toEqual([]);
  });
  it("rejects an update that changes the invalid value", () => {
    const old = make("toolong", "a");
    expect(admit({ schema: withOther, object: make("toolonger", "a"), oldObject: old }).causes).toHaveLength(
      1,
    );
  });
});
