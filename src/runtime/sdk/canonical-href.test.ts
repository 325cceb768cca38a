import { describe, expect, it } from "vitest";
import {
  HREF_PATTERN,
  hrefProblem,
  isCanonicalHref,
  MAX_HREF_LENGTH,
  selfLinkMismatch,
} from "./canonical-href.ts";

/** Hrefs as the service writes them: ids are opaque, `id;suffix` included (spec 2.1, item 6). */
const CANONICAL = [
  "/api/resource_groups/1",
  "/api/deployments/3",
  "/api/clouds/1/datacenters/2",
  "/api/clouds/1/volumes/ABC123;vol-9",
  "/api/permissions/2-observer",
  "/api/clouds/1/instances/i-0abc.5",
  "/api/clouds/1/instance_types/m1~small:x@y,z=1",
];

/** Every other spelling the review found accepted, and the others an href never holds. */
const REFUSED: [string, RegExp][] = [
  ["/api/resource_groups/1/", /must not end with a slash/],
  ["/api/resource_groups/1?x=1", /query/],
  ["/api/resource_groups/1?", /query/],
  ["/api/resource_groups/1#x", /fragment/],
  ["/api/resource_groups/%31", /percent-encoded/],
  ["/api/resource_groups/1.json", /format suffix/],
  ["/api/resource_groups/1.xml", /format suffix/],
  ["/api/resource_groups/1.JSON", /format suffix/],
  ["/api/resource_groups//1", /empty segment/],
  ["/api/resource_groups/./1", /\. or \.\. segment/],
  ["/api/resource_groups/../deployments/3", /\. or \.\. segment/],
  ["/api/resource_groups/1 ", /only letters, digits/],
  ["/api/resource_groups/1\n", /only letters, digits/],
  ["/api/resource_groups/é", /only letters, digits/],
  ["/api/resource_groups/a+b", /only letters, digits/],
  ["api/resource_groups/1", /must start with \/api\//],
  ["/API/resource_groups/1", /must start with \/api\//],
  ["http://evil/api/resource_groups/1", /must start with \/api\//],
  ["/api/", /must not end with a slash/],
  [`/api/${"x".repeat(MAX_HREF_LENGTH)}`, /longer than/],
];

describe("hrefProblem", () => {
  it.each(CANONICAL)("takes %s as written", (href) => {
    expect(hrefProblem(href)).toBeUndefined();
    expect(isCanonicalHref(href)).toBe(true);
    expect(new RegExp(HREF_PATTERN).test(href)).toBe(true);
  });

  it.each(REFUSED)("refuses %j, saying why", (href, why) => {
    expect(hrefProblem(href)).toMatch(why);
    expect(isCanonicalHref(href)).toBe(false);
  });

  it("the CRD pattern refuses each spelling a pattern can say (what it lets through, hrefProblem refuses)", () => {
    const pattern = new RegExp(HREF_PATTERN);
    const byPattern = REFUSED.map(([href]) => href).filter((href) => !pattern.test(href));
    const passed = REFUSED.map(([href]) => href).filter((href) => pattern.test(href));
    expect(byPattern).toContain("/api/resource_groups/1/");
    expect(byPattern).toContain("/api/resource_groups/%31");
    expect(byPattern).toContain("/api/resource_groups/1?x=1");
    expect(passed.sort()).toEqual(
      [
        "/api/resource_groups/1.json",
        "/api/resource_groups/1.xml",
        "/api/resource_groups/1.JSON",
        "/api/resource_groups/./1",
        "/api/resource_groups/../deployments/3",
        `/api/${"x".repeat(MAX_HREF_LENGTH)}`,
      ].sort(),
    );
  });
});

describe("selfLinkMismatch", () => {
  it("the self link is the identity: the same href passes, another is named", () => {
    expect(selfLinkMismatch("/api/resource_groups/1", "/api/resource_groups/1")).toBeUndefined();
    expect(selfLinkMismatch("/api/resource_groups/01", "/api/resource_groups/1")).toBe(
      "the service shows /api/resource_groups/01 as /api/resource_groups/1: that is its href",
    );
  });
});
