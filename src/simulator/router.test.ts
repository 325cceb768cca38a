import { describe, expect, it } from "vitest";
import { Router } from "./router.ts";

function router() {
  const r = new Router<string>();
  r.add("GET", "/api/deployments", "index");
  r.add("POST", "/api/deployments", "create");
  r.add("GET", "/api/deployments/:id", "show");
  r.add("DELETE", "/api/deployments/:id", "destroy");
  r.add("POST", "/api/deployments/:id/clone", "clone");
  r.add("GET", "/api/clouds/:cloud_id/instances/:id", "instance");
  r.add("GET", "/api/clouds/:cloud_id/instances/:instance_id/inputs", "inputs");
  r.add("GET", "/api/routes/special", "special");
  r.add("GET", "/api/routes/:id/next", "next");
  return r;
}

describe("Router", () => {
  it("matches templates and names each route's parameters itself", () => {
    const r = router();
    expect(r.match("GET", "/api/deployments/7")).toMatchObject({
      kind: "found",
      handler: "show",
      params: { id: "7" },
    });
    expect(r.match("GET", "/api/clouds/1/instances/5")).toMatchObject({ params: { cloud_id: "1", id: "5" } });
    expect(r.match("GET", "/api/clouds/1/instances/5/inputs")).toMatchObject({
      handler: "inputs",
      params: { cloud_id: "1", instance_id: "5" },
      template: "/api/clouds/:cloud_id/instances/:instance_id/inputs",
    });
  });

  it("accepts .json/.xml suffixes and a trailing slash", () => {
    const r = router();
    expect(r.match("GET", "/api/deployments.xml")).toMatchObject({ handler: "index", suffix: "xml" });
    expect(r.match("POST", "/api/deployments/3/clone.json")).toMatchObject({
      handler: "clone",
      suffix: "json",
    });
    expect(r.match("GET", "/api/deployments/")).toMatchObject({ handler: "index", suffix: null });
  });

  it("answers method-not-allowed with the allowed methods, not-found and unknown-format", () => {
    const r = router();
    expect(r.match("PUT", "/api/deployments")).toEqual({
      kind: "method-not-allowed",
      allowed: ["GET", "POST"],
      template: "/api/deployments",
    });
    expect(r.match("GET", "/api/nothing")).toEqual({ kind: "not-found" });
    expect(r.match("GET", "/api/deployments/1/clone/x")).toEqual({ kind: "not-found" });
    expect(r.match("GET", "/api/deployments.yaml")).toEqual({ kind: "unknown-format", extension: "yaml" });
    expect(r.match("GET", "/api/deployments/1.html")).toEqual({ kind: "unknown-format", extension: "html" });
  });

  it("backtracks from a fixed segment to a parameter", () => {
    const r = router();
    expect(r.match("GET", "/api/routes/special")).toMatchObject({ handler: "special" });
    expect(r.match("GET", "/api/routes/special/next")).toMatchObject({
      handler: "next",
      params: { id: "special" },
    });
  });

  it("decodes parameters and rejects a malformed escape or an empty segment", () => {
    const r = router();
    expect(r.match("GET", "/api/deployments/a%2Fb")).toMatchObject({ params: { id: "a/b" } });
    expect(r.match("GET", "/api/deployments/%E0%A4%A")).toEqual({ kind: "not-found" });
    expect(r.match("POST", "/api/deployments//clone")).toEqual({ kind: "not-found" });
  });

  it("refuses a route registered twice", () => {
    const r = router();
    expect(() => r.add("GET", "/api/deployments/:other", "x")).toThrow(/registered twice/);
  });
});
