import { describe, expect, it } from "vitest";
import { resources } from "./resources/index.ts";
import { defaultSeed, loadSeed, SeedError, validateSeed } from "./seed.ts";
import { Store } from "./store.ts";

describe("seed", () => {
  it("the default seed is valid and deterministic", () => {
    const a = validateSeed(defaultSeed(resources), resources);
    const b = validateSeed(defaultSeed(resources), resources);
    expect(a).toEqual(b);
    const store = new Store();
    loadSeed(store, a, resources);
    expect(store.collection("users").get("1")).toMatchObject({ email: "admin@example.com" });
    expect(store.collection("users").get("2")).toMatchObject({ email: "user2@example.com", settings: [] });
    expect(
      store.collection("permissions").filter((p) => (p as unknown as { user_id: string }).user_id === "2"),
    ).toEqual([]);
    expect(store.collection("clouds").get("2")).toMatchObject({
      capabilities: { supports_networks: false, supports_route_tables: false },
    });
  });

  it("errors name the collection, index and field", () => {
    expect(() => validateSeed({ deployments: [{ id: 1 }] }, resources, "f.yaml")).toThrow(
      new SeedError("f.yaml: deployments[0].name: Invalid input: expected string, received undefined"),
    );
    expect(() => validateSeed({ deployments: {} }, resources)).toThrow(
      /deployments must be a list of records/,
    );
    expect(() => validateSeed(null, resources)).toThrow(/must be a mapping/);
  });

  it("loads copies: changing the store does not change the seed", () => {
    const seed = validateSeed({ deployments: [{ id: 1, name: "x" }] }, resources);
    const store = new Store();
    loadSeed(store, seed, resources);
    (store.collection("deployments").get("1") as unknown as { name: string }).name = "changed";
    expect((seed.deployments![0] as unknown as { name: string }).name).toBe("x");
  });
});
