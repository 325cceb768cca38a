import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { login, startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

type Rep = {
  role_title: string;
  created_at: string | null;
  links: Array<{ rel: string; href: string }>;
  actions: unknown[];
};
const grant = (user: string, role: string) =>
  h.admin.post("/api/permissions", {
    form: { permission: { user_href: `/api/users/${user}`, role_title: role } },
  });

describe("permissions", () => {
  it("index lists user 1's roles, observer first; filter user_href", async () => {
    const res = await h.admin.get("/api/permissions");
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.svc.permission+json;type=collection;charset=utf-8",
    );
    const list = res.json<Rep[]>();
    expect(list[0]!.role_title).toBe("observer");
    expect(list).toHaveLength(17);
    const byUser = await h.admin.get("/api/permissions", { query: { filter: ["user_href==/api/users/2"] } });
    expect(byUser.json()).toEqual([]);
    expect((await h.admin.get("/api/permissions", { query: { filter: ["role_title==admin"] } })).status).toBe(
      400,
    );
  });

  it("create answers 201 with Location /api/permissions/<user_id>-<role_title>; show and XML", async () => {
    const res = await grant("2", "observer");
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/api/permissions/2-observer");
    const shown = (await h.admin.get("/api/permissions/2-observer")).json<Rep>();
    expect(shown).toEqual({
      id: "2-observer",
      role_title: "observer",
      created_at: "2026/01/01 00:00:00 +0000",
      deleted_at: null,
      links: [
        { rel: "self", href: "/api/permissions/2-observer" },
        { rel: "account", href: "/api/accounts/1" },
        { rel: "user", href: "/api/users/2" },
      ],
      actions: [],
    });
    const xml = await h.admin.get("/api/permissions/2-observer.xml");
    expect(xml.text).toContain("<permission><id>2-observer</id><role_title>observer</role_title>");
    expect(xml.text).toContain("<actions/>");
  });

  it("observer must come first: granting another role before it is 422", async () => {
    const res = await h.expectUnchanged(() => grant("2", "actor"));
    expect([res.status, res.text]).toEqual([422, "A user must have the observer role."]);
    expect((await grant("2", "observer")).status).toBe(201);
    expect((await grant("2", "actor")).status).toBe(201);
  });

  it("observer must go last: removing it while other roles remain is 422", async () => {
    await grant("2", "observer");
    await grant("2", "actor");
    const res = await h.expectUnchanged(() => h.admin.delete("/api/permissions/2-observer"));
    expect([res.status, res.text]).toEqual([422, "A user must have the observer role."]);
    expect((await h.admin.delete("/api/permissions/2-actor")).status).toBe(204);
    expect((await h.admin.delete("/api/permissions/2-observer")).status).toBe(204);
    expect((await h.admin.get("/api/permissions/2-observer")).text).toBe(
      "ResourceNotFound: Couldn't find Permission with ID=2-observer",
    );
  });

  it("granted roles take effect at once", async () => {
    const user2 = await login(h.url, "user2@example.com", "password");
    expect((await user2.get("/api/clouds")).status).toBe(403);
    await grant("2", "observer");
    expect((await user2.get("/api/clouds")).status).toBe(200);
  });

  const bad: Array<[string, unknown, number, string]> = [
    ["no wrapper", {}, 400, "ParameterError: permission is required"],
    [
      "no role",
      { permission: { user_href: "/api/users/2" } },
      400,
      "ParameterError: permission[role_title] is required",
    ],
    [
      "no user",
      { permission: { role_title: "observer" } },
      400,
      "ParameterError: permission[user_href] is required",
    ],
    [
      "blank role",
      { permission: { role_title: "", user_href: "/api/users/2" } },
      400,
      "ParameterError: permission[role_title] must not be blank",
    ],
    [
      "unknown role",
      { permission: { role_title: "root", user_href: "/api/users/2" } },
      400,
      "ParameterError: permission[role_title] must be one of admin, actor, observer, aws_architect, publisher, designer, signup_wiz, enterprise_manager, server_login, library, security_manager, instance, server_superuser, infrastructure, ss_end_user, ss_designer, ss_observer (got 'root')",
    ],
    [
      "malformed user",
      { permission: { role_title: "observer", user_href: "users/2" } },
      400,
      "ParameterError: permission[user_href] must be an href of the form /api/users/:id (got 'users/2')",
    ],
    [
      "unknown user",
      { permission: { role_title: "observer", user_href: "/api/users/77" } },
      422,
      "ResourceNotFound: Couldn't find User with ID=77",
    ],
    [
      "extra member",
      { permission: { role_title: "observer", user_href: "/api/users/2", account: "1" } },
      400,
      "ParameterError: permission[account] is not allowed",
    ],
    [
      "a role already held",
      { permission: { role_title: "admin", user_href: "/api/users/1" } },
      422,
      "ActionNotAllowed: User 1 already has the admin role",
    ],
  ];
  it.each(bad)("create refuses %s and changes nothing", async (_reason, json, status, text) => {
    const res = await h.expectUnchanged(() => h.admin.post("/api/permissions", { json }));
    expect([res.status, res.text]).toEqual([status, text]);
  });

  it("destroy of an unknown permission is 422; there is no update (405)", async () => {
    expect((await h.expectUnchanged(() => h.admin.delete("/api/permissions/2-admin"))).status).toBe(422);
    expect((await h.admin.put("/api/permissions/1-admin")).status).toBe(405);
  });

  it("roles: observer reads, admin grants and revokes", async () => {
    expect((await h.user2.get("/api/permissions")).status).toBe(403);
    const res = await h.user2.post("/api/permissions", {
      form: { permission: { user_href: "/api/users/2", role_title: "observer" } },
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain("admin");
  });
});
