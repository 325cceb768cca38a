import { describe, expect, it } from "vitest";
import type { DeploymentRep } from "./deployments-helpers.ts";
import { startFileSimulator } from "./file-simulator.ts";

const h = await startFileSimulator({ resetEach: true });

describe("deployments: create, update, destroy", () => {
  it("creates with 201 and a relative Location, form or JSON", async () => {
    const form = await h.admin.post("/api/deployments", {
      form: { deployment: { name: "web", description: "Web tier", server_tag_scope: "account" } },
    });
    expect(form.status).toBe(201);
    expect(form.headers.get("location")).toBe("/api/deployments/3");
    const json = await h.admin.post("/api/deployments.json", { json: { deployment: { name: "db" } } });
    expect(json.status).toBe(201);
    expect(json.headers.get("location")).toBe("/api/deployments/4");
    expect((await h.admin.get("/api/deployments/3")).json<DeploymentRep>()).toMatchObject({
      name: "web",
      description: "Web tier",
      server_tag_scope: "account",
      locked: false,
    });
    expect((await h.admin.get("/api/deployments/4")).json<DeploymentRep>()).toMatchObject({
      name: "db",
      description: null,
      server_tag_scope: "deployment",
    });
  });

  it("accepts parameters in the query string of a create", async () => {
    const res = await h.admin.post("/api/deployments", { query: { deployment: { name: "from-query" } } });
    expect(res.status).toBe(201);
  });

  it("refuses a duplicate name (create, update, clone) with the JSON array of pairs", async () => {
    const pairs = [["name", "A deployment with this name already exists. Please enter a different name."]];
    const create = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments", { form: { deployment: { name: "Production" } } }),
    );
    expect(create.status).toBe(422);
    expect(create.headers.get("content-type")).toContain("application/json");
    expect(create.json()).toEqual(pairs);
    const update = await h.expectUnchanged(() =>
      h.admin.put("/api/deployments/2", { form: { deployment: { name: "Production" } } }),
    );
    expect([update.status, update.json()]).toEqual([422, pairs]);
    const clone = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments/2/clone", { form: { deployment: { name: "Production" } } }),
    );
    expect([clone.status, clone.json()]).toEqual([422, pairs]);
  });

  it("updates the given fields with 204 and an empty body", async () => {
    const res = await h.admin.put("/api/deployments/1", {
      form: { deployment: { description: "", server_tag_scope: "account" } },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await h.admin.get("/api/deployments/1")).json<DeploymentRep>()).toMatchObject({
      name: "Production",
      description: "",
      server_tag_scope: "account",
    });
    // renaming a locked deployment stays allowed
    expect(
      (await h.admin.put("/api/deployments/2", { json: { deployment: { name: "Stage" } } })).status,
    ).toBe(204);
    expect((await h.admin.get("/api/deployments/2")).json<DeploymentRep>().name).toBe("Stage");
  });

  it("destroys with 204; locked is 422 ActionNotAllowed; one with servers is 422", async () => {
    const created = await h.admin.post("/api/deployments", { form: { deployment: { name: "tmp" } } });
    const href = created.headers.get("location")!;
    expect((await h.admin.delete(href)).status).toBe(204);
    expect((await h.admin.get(href)).status).toBe(422);
    const locked = await h.expectUnchanged(() => h.admin.delete("/api/deployments/2"));
    expect([locked.status, locked.text]).toEqual([422, "ActionNotAllowed: The deployment is locked"]);
    const withServers = await h.expectUnchanged(() => h.admin.delete("/api/deployments/1"));
    expect(withServers.status).toBe(422);
    expect(withServers.text).toMatch(/^ActionNotAllowed: /);
    const unknown = await h.expectUnchanged(() => h.admin.delete("/api/deployments/77"));
    expect([unknown.status, unknown.text]).toEqual([
      422,
      "ResourceNotFound: Couldn't find Deployment with ID=77",
    ]);
  });

  const badCreates: Array<[string, Record<string, unknown> | string, number, string]> = [
    ["no wrapper", {}, 400, "ParameterError: deployment is required"],
    ["wrapper not a hash", "deployment=x", 400, "ParameterError: deployment must be a Hash"],
    ["no name", { deployment: { description: "d" } }, 400, "ParameterError: deployment[name] is required"],
    ["blank name", { deployment: { name: "" } }, 400, "ParameterError: deployment[name] must not be blank"],
    [
      "bad tag scope",
      { deployment: { name: "x", server_tag_scope: "global" } },
      400,
      "ParameterError: deployment[server_tag_scope] must be one of deployment, account (got 'global')",
    ],
    [
      "unknown member",
      { deployment: { name: "x", locked: "true" } },
      400,
      "ParameterError: deployment[locked] is not allowed",
    ],
    [
      "blank resource group",
      { deployment: { name: "x", resource_group_href: "" } },
      400,
      "ParameterError: deployment[resource_group_href] must not be blank",
    ],
    [
      "malformed resource group",
      { deployment: { name: "x", resource_group_href: "/api/clouds/1" } },
      400,
      "ParameterError: deployment[resource_group_href] must be an href of the form /api/resource_groups/:id (got '/api/clouds/1')",
    ],
    [
      "unknown resource group",
      { deployment: { name: "x", resource_group_href: "/api/resource_groups/404" } },
      422,
      "ResourceNotFound: Couldn't find ResourceGroup with ID=404",
    ],
    ["name not a string", "deployment[name][a]=b", 400, "ParameterError: deployment[name] must be a String"],
  ];
  it.each(badCreates)("create refuses %s and changes nothing", async (_reason, form, status, body) => {
    const res = await h.expectUnchanged(() => h.admin.post("/api/deployments", { form }));
    expect([res.status, res.text]).toEqual([status, body]);
  });

  const badUpdates: Array<[string, unknown, number, string]> = [
    ["no wrapper", {}, 400, "ParameterError: deployment is required"],
    ["empty wrapper", { deployment: {} }, 400, "ParameterError: deployment must not be blank"],
    ["blank name", { deployment: { name: "" } }, 400, "ParameterError: deployment[name] must not be blank"],
    ["unknown member", { deployment: { foo: "x" } }, 400, "ParameterError: deployment[foo] is not allowed"],
    [
      "bad tag scope",
      { deployment: { server_tag_scope: 3 } },
      400,
      "ParameterError: deployment[server_tag_scope] must be one of deployment, account (got '3')",
    ],
  ];
  it.each(badUpdates)("update refuses %s and changes nothing", async (_reason, json, status, body) => {
    const res = await h.expectUnchanged(() => h.admin.put("/api/deployments/1", { json }));
    expect([res.status, res.text]).toEqual([status, body]);
  });

  it("update of an unknown id is 422", async () => {
    const res = await h.expectUnchanged(() =>
      h.admin.put("/api/deployments/50", { form: { deployment: { name: "x" } } }),
    );
    expect([res.status, res.text]).toEqual([422, "ResourceNotFound: Couldn't find Deployment with ID=50"]);
  });
});

describe("deployments: clone, lock, unlock", () => {
  it("clone copies description, tag scope and inputs, names it '<name> v2', answers the clone's Location", async () => {
    const res = await h.admin.post("/api/deployments/1/clone");
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/api/deployments/3");
    const clone = (
      await h.admin.get("/api/deployments/3", { query: { view: "inputs_2_0" } })
    ).json<DeploymentRep>();
    const source = (
      await h.admin.get("/api/deployments/1", { query: { view: "inputs_2_0" } })
    ).json<DeploymentRep>();
    expect(clone).toMatchObject({
      name: "Production v2",
      description: source.description,
      server_tag_scope: source.server_tag_scope,
      locked: false,
    });
    expect(clone.inputs).toEqual(source.inputs);
    const again = await h.admin.post("/api/deployments/1/clone");
    expect((await h.admin.get(again.headers.get("location")!)).json<DeploymentRep>().name).toBe(
      "Production v3",
    );
    const ofClone = await h.admin.post("/api/deployments/3/clone");
    expect((await h.admin.get(ofClone.headers.get("location")!)).json<DeploymentRep>().name).toBe(
      "Production v4",
    );
  });

  it("clone takes an optional name, description and tag scope; a locked source gives an unlocked clone", async () => {
    const res = await h.admin.post("/api/deployments/2/clone", {
      form: { deployment: { name: "Copy", description: "copied", server_tag_scope: "deployment" } },
    });
    expect(res.status).toBe(201);
    expect((await h.admin.get(res.headers.get("location")!)).json<DeploymentRep>()).toMatchObject({
      name: "Copy",
      description: "copied",
      server_tag_scope: "deployment",
      locked: false,
    });
    const bad = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments/2/clone", { form: { deployment: { resource_group_href: "x" } } }),
    );
    expect([bad.status, bad.text]).toEqual([
      400,
      "ParameterError: deployment[resource_group_href] is not allowed",
    ]);
    const missing = await h.expectUnchanged(() => h.admin.post("/api/deployments/99/clone"));
    expect(missing.status).toBe(422);
  });

  it("lock is idempotent, offers unlock, and unlock reverses it", async () => {
    expect((await h.admin.post("/api/deployments/1/lock")).status).toBe(204);
    expect((await h.admin.post("/api/deployments/1/lock")).status).toBe(204);
    let d = (await h.admin.get("/api/deployments/1")).json<DeploymentRep>();
    expect(d.locked).toBe(true);
    expect(d.actions).toEqual([{ rel: "clone" }, { rel: "unlock" }]);
    expect((await h.admin.delete("/api/deployments/1")).text).toBe(
      "ActionNotAllowed: The deployment is locked",
    );
    expect((await h.admin.post("/api/deployments/1/unlock.json")).status).toBe(204);
    d = (await h.admin.get("/api/deployments/1")).json<DeploymentRep>();
    expect(d.locked).toBe(false);
    expect(d.actions).toEqual([{ rel: "clone" }, { rel: "lock" }]);
    expect((await h.admin.post("/api/deployments/99/lock")).status).toBe(422);
  });
});

describe("deployments: roles", () => {
  it("user 2 (no roles) gets 403 naming the role on every operation", async () => {
    const calls = [
      h.user2.get("/api/deployments"),
      h.user2.get("/api/deployments/1"),
      h.user2.post("/api/deployments", { form: { deployment: { name: "x" } } }),
      h.user2.put("/api/deployments/1", { form: { deployment: { name: "x" } } }),
      h.user2.delete("/api/deployments/1"),
      h.user2.post("/api/deployments/1/clone"),
      h.user2.post("/api/deployments/1/lock"),
      h.user2.post("/api/deployments/1/unlock"),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
    expect(answers[0]!.text).toMatch(/^PermissionDenied: .*observer role/);
    expect(answers[2]!.text).toMatch(/^PermissionDenied: .*actor role/);
  });

  it("actor without the premium_deployments setting cannot create but can lock", async () => {
    // grant user 2 observer + actor, but no settings
    expect(
      (
        await h.admin.post("/api/permissions", {
          form: { permission: { user_href: "/api/users/2", role_title: "observer" } },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await h.admin.post("/api/permissions", {
          form: { permission: { user_href: "/api/users/2", role_title: "actor" } },
        })
      ).status,
    ).toBe(201);
    expect((await h.user2.get("/api/deployments")).status).toBe(200);
    const create = await h.user2.post("/api/deployments", { form: { deployment: { name: "x" } } });
    expect([create.status, create.text]).toEqual([
      403,
      "PermissionDenied: this operation requires the premium_deployments setting to be enabled",
    ]);
    expect((await h.user2.post("/api/deployments/1/lock")).status).toBe(204);
  });
});
