import { describe, expect, it } from "vitest";
import { cloudCapabilities } from "../../src/api/resources/clouds.ts";
import { selfHref } from "../../src/api/schemas.ts";
import { rejection, startResourceSuite } from "./helpers.ts";

const { t, api } = await startResourceSuite();

describe("deployments", () => {
  it("create (href from Location), show, index with a filter, update, destroy", async () => {
    const href = await api.deployments.create({
      name: "Web tier",
      description: "d",
      server_tag_scope: "account",
    });
    expect(href).toMatch(/^\/api\/deployments\/[^/]+$/);
    expect(await api.deployments.show(href)).toMatchObject({
      name: "Web tier",
      description: "d",
      server_tag_scope: "account",
      locked: false,
    });
    const found = await api.deployments.index({ filter: { name: "web t" } });
    expect(found.map(selfHref)).toEqual([href]);
    await api.deployments.update(href, { description: "" });
    expect((await api.deployments.show(href)).description).toBe("");
    await api.deployments.destroy(href);
    expect(await rejection(api.deployments.show(href))).toMatchObject({ kind: "notFound", status: 422 });
  });

  it("lock is idempotent and makes destroy a conflict; unlock reverses it", async () => {
    await api.deployments.lock("/api/deployments/1");
    await api.deployments.lock("/api/deployments/1");
    const locked = await api.deployments.show("/api/deployments/1");
    expect(locked.locked).toBe(true);
    expect(locked.actions.map((a) => a.rel)).toContain("unlock");
    const error = await rejection(api.deployments.destroy("/api/deployments/1"));
    expect(error).toMatchObject({ kind: "conflict", errorType: "ActionNotAllowed" });
    await api.deployments.unlock("/api/deployments/1");
    expect((await api.deployments.show("/api/deployments/1")).locked).toBe(false);
  });

  it("clone answers the clone's href", async () => {
    const href = await api.deployments.clone("/api/deployments/1", { name: "Production copy" });
    expect(href).not.toBe("/api/deployments/1");
    expect((await api.deployments.show(href)).name).toBe("Production copy");
  });

  it("a duplicate name is a conflict carrying the field errors", async () => {
    const error = await rejection(api.deployments.create({ name: "Production" }));
    expect(error).toMatchObject({ kind: "conflict", status: 422 });
    expect(error.fieldErrors).toEqual([
      ["name", "A deployment with this name already exists. Please enter a different name."],
    ]);
  });

  it("a bad parameter is invalid and names it", async () => {
    const error = await rejection(
      api.deployments.create({ name: "x", server_tag_scope: "galaxy" as unknown as "account" }),
    );
    expect(error).toMatchObject({ kind: "invalid", status: 400, errorType: "ParameterError" });
    expect(error.message).toContain("deployment[server_tag_scope]");
  });

  it("shows inputs in the inputs views", async () => {
    const d = await api.deployments.show("/api/deployments/1", { view: "inputs_2_0" });
    expect(d.inputs).toContainEqual({ name: "LOG_LEVEL", value: "blank" });
  });
});

describe("inputs", () => {
  it("index in both views and multi_update in the 2.0 notation", async () => {
    const inputs = await api.inputs.index("/api/deployments/1");
    expect(inputs).toContainEqual({ name: "APP_ENV", value: "text:production" });
    const legacy = await api.inputs.index("/api/deployments/1", "default");
    expect(legacy).toContainEqual({ name: "LOG_LEVEL", value: "text:" });
    await api.inputs.multiUpdate("/api/deployments/1", {
      APP_ENV: "text:staging",
      HOSTS: 'array:["text:c.example.com"]',
      UNKNOWN_INPUT: "text:ignored",
    });
    const after = await api.inputs.index("/api/deployments/1");
    expect(after).toContainEqual({ name: "APP_ENV", value: "text:staging" });
    expect(after).toContainEqual({ name: "HOSTS", value: 'array:["text:c.example.com"]' });
    expect(after.map((i) => i.name)).not.toContain("UNKNOWN_INPUT");
  });

  it("rejects a malformed value before sending, naming the input", async () => {
    const calls = t.events.length;
    const error = await rejection(api.inputs.multiUpdate("/api/deployments/1", { APP_ENV: "production" }));
    expect(error).toMatchObject({ kind: "invalid", code: "SVC_INVALID" });
    expect(error.message).toContain("APP_ENV");
    expect(t.events.length).toBe(calls);
  });
});

describe("permissions", () => {
  it("observer first, other roles after, observer removed last (ordering errors are conflicts)", async () => {
    const user = "/api/users/2";
    const early = await rejection(api.permissions.create({ role_title: "actor", user_href: user }));
    expect(early).toMatchObject({ kind: "conflict", status: 422 });
    const observer = await api.permissions.create({ role_title: "observer", user_href: user });
    expect(observer).toBe("/api/permissions/2-observer");
    const actor = await api.permissions.create({ role_title: "actor", user_href: user });
    const roles = await api.permissions.index({ filter: { user_href: user } });
    expect(roles.map((p) => p.role_title).sort()).toEqual(["actor", "observer"]);
    expect(await rejection(api.permissions.destroy(observer))).toMatchObject({ kind: "conflict" });
    await api.permissions.destroy(actor);
    await api.permissions.destroy(observer);
    expect(await api.permissions.index({ filter: { user_href: user } })).toEqual([]);
    expect((await api.permissions.show("/api/permissions/1-admin")).role_title).toBe("admin");
  });
});

describe("clouds, instance types, volume types", () => {
  it("reads clouds with capabilities in the extended view", async () => {
    const clouds = await api.clouds.index();
    expect(clouds.length).toBeGreaterThanOrEqual(2);
    const first = await api.clouds.show("/api/clouds/1", { view: "extended" });
    expect(cloudCapabilities(first).supports_networks).toBe(true);
    const second = await api.clouds.show("/api/clouds/2", { view: "extended" });
    expect(cloudCapabilities(second).supports_networks).toBe(false);
    expect((await api.clouds.show("/api/clouds/1")).capabilities).toBeUndefined();
    expect(await rejection(api.clouds.show("/api/clouds/0"))).toMatchObject({ kind: "notFound" });
  });

  it("lists instance types (deleted ones on request) and volume types", async () => {
    const live = await api.clouds.instanceTypes("/api/clouds/1");
    const all = await api.clouds.instanceTypes("/api/clouds/1", { withDeleted: true });
    expect(all.length).toBeGreaterThan(live.length);
    const one = await api.clouds.instanceType(selfHref(live[0]!));
    expect(one.name).toBe(live[0]!.name);
    const types = await api.clouds.volumeTypes("/api/clouds/1", { filter: { name: "standard" } });
    expect(types.map((v) => v.name)).toEqual(["standard"]);
    expect(await api.clouds.volumeType(selfHref(types[0]!))).toHaveProperty("size");
  });
});
