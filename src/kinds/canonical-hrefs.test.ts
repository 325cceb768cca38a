import { describe, expect, it } from "vitest";
import * as z from "zod";
import { claimedHrefs, OwnerIndex } from "../runtime/indexes/index.ts";
import type { ManagedObject } from "../runtime/sdk/index.ts";
import { Annotation, HREF_PATTERN, INVALID_HREF } from "../runtime/sdk/index.ts";
import { managedKinds } from "./index.ts";

/** Other spellings of /api/<collection>/1 (the review's five, and the rest an href never holds). */
const SPELLINGS = ["1/", "1?x=1", "1?", "%31", "1.json", "1.xml", "1#x", "./1", "/1"];

/** Every spec field of `schema` whose CRD property is an href (the pattern), as paths of JSON schema. */
function hrefFields(schema: z.ZodType): { path: string[]; array: boolean }[] {
  const json = z.toJSONSchema(schema, { target: "openapi-3.0", io: "input" }) as {
    properties?: Record<string, { pattern?: string; items?: { pattern?: string } }>;
  };
  const out: { path: string[]; array: boolean }[] = [];
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    if (property.pattern === HREF_PATTERN) out.push({ path: [name], array: false });
    if (property.items?.pattern === HREF_PATTERN) out.push({ path: [name], array: true });
  }
  return out;
}

function resource(kind: string, ns: string, href: string, created: string): ManagedObject {
  return {
    kind,
    metadata: {
      namespace: ns,
      name: "x",
      annotations: { [Annotation.href]: href },
      creationTimestamp: created,
    },
    spec: {},
  };
}

describe.each(managedKinds.map((k) => [k.kind, k] as const))("%s: one canonical href", (kind, managed) => {
  it("every href spec field refuses each other spelling: by the CRD pattern, else as InvalidHref", () => {
    const fields = hrefFields(managed.schema);
    for (const { path, array } of fields) {
      for (const spelling of SPELLINGS) {
        const value = `/api/things/${spelling}`;
        if (!new RegExp(HREF_PATTERN).test(value)) continue;
        const result = managed.schema.safeParse({ [path[0]!]: array ? [value] : value });
        const issue = result.error?.issues.find((i) => i.path[0] === path[0] && i.code === "custom");
        expect(
          issue && "params" in issue ? issue.params : undefined,
          `${kind} spec.${path[0]} = ${value}`,
        ).toEqual(INVALID_HREF);
      }
    }
  });

  it("an href annotation in another spelling claims nothing: the owner keeps its href", () => {
    const owned = "/api/things/1";
    const owners = new OwnerIndex();
    const owner = resource(kind, "demo", owned, "2026-01-01T10:00:00Z");
    owners.set(kind, owner);
    for (const spelling of SPELLINGS) {
      const claimant = resource(kind, "attacker", `/api/things/${spelling}`, "2026-01-01T09:00:00Z");
      owners.set(kind, claimant);
      expect(claimedHrefs(claimant), spelling).toEqual([]);
      expect(owners.decide(kind, owner, owned), spelling).toBeUndefined();
    }
  });
});

it("the kinds hold href spec fields to check (the table above is not empty)", () => {
  const counts = managedKinds.map((k) => hrefFields(k.schema).length);
  expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
});
