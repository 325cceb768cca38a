import { describe, expect, it } from "vitest";
import { DenyList, parseDenyFlag, requestVerb } from "./deny.ts";

describe("parseDenyFlag", () => {
  it("reads verb, resource, group and subresource", () => {
    expect(
      parseDenyFlag("list:accounts.cloud.svc.io, patch:deployments.cloud.svc.io/status,get:secrets,watch:*"),
    ).toEqual([
      { verb: "list", resource: "accounts", group: "cloud.svc.io" },
      { verb: "patch", resource: "deployments", group: "cloud.svc.io", subresource: "status" },
      { verb: "get", resource: "secrets", group: "" },
      { verb: "watch", resource: "*" },
    ]);
  });

  it("names an entry it cannot read", () => {
    expect(() => parseDenyFlag("list")).toThrow('"list" is not VERB:RESOURCE[.GROUP][/SUBRESOURCE]');
  });
});

describe("DenyList", () => {
  it("matches verb, group, subresource and namespace; a rule without a subresource covers them", () => {
    const deny = new DenyList();
    deny.set({ rules: [{ verb: "patch", resource: "deployments", group: "cloud.svc.io", namespace: "a" }] });
    const at = (namespace: string, subresource?: string) =>
      deny.check({
        verb: "patch",
        group: "cloud.svc.io",
        resource: "deployments",
        namespace,
        name: "web",
        subresource,
      })?.code;
    expect(at("a")).toBe(403);
    expect(at("a", "status")).toBe(403);
    expect(at("b")).toBeUndefined();
    expect(
      deny.check({ verb: "get", group: "cloud.svc.io", resource: "deployments", namespace: "a" }),
    ).toBeUndefined();
  });

  it.each([
    ["GET", true, false, "get"],
    ["GET", false, false, "list"],
    ["GET", false, true, "watch"],
    ["POST", false, false, "create"],
    ["PUT", true, false, "update"],
    ["PATCH", true, false, "patch"],
    ["DELETE", true, false, "delete"],
    ["DELETE", false, false, "deletecollection"],
  ])("%s (named %s, watch %s) is %s", (method, named, watch, verb) =>
    expect(requestVerb(method, named, watch)).toBe(verb),
  );
});
