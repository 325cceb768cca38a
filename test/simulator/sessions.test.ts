import { afterAll, describe, expect, it } from "vitest";
import { oauthClient, SimClient, startSimulator } from "./harness.ts";

// Issue 20 item 1: the session resource, the accounts a user can use, the health check.
const h = await startSimulator();
afterAll(() => h.close());

interface Link {
  rel: string;
  href: string;
}
interface Session {
  message: string;
  links: Link[];
  actions: unknown[];
}

const ROOTS = [
  "alert_specs",
  "audit_entries",
  "clouds",
  "deployments",
  "network_gateways",
  "networks",
  "permissions",
  "stored_scripts",
  "route_tables",
  "routes",
];
const credentials = { email: "user2@example.com", password: "password" };

describe("GET /api/session", () => {
  it("answers the session: a message, no actions, the root resources, self, user and account", async () => {
    for (const [path, query] of [
      ["/api/session", {}],
      ["/api/session", { view: "default" }],
      ["/api/sessions", { view: "default" }],
    ] as const) {
      const res = await h.admin.get(path, { query });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/vnd.svc.session+json;charset=utf-8");
      const session = res.json<Session>();
      expect(session.message).toBe("You have successfully logged into the API.");
      expect(session.actions).toEqual([]);
      expect(session.links).toEqual([
        ...ROOTS.map((rel) => ({ rel, href: `/api/${rel}` })),
        { rel: "self", href: "/api/session" },
        ...["server_arrays", "server_templates", "servers", "users"].map((rel) => ({
          rel,
          href: `/api/${rel}`,
        })),
        { rel: "user", href: "/api/users/1" },
        { rel: "account", href: "/api/accounts/1" },
      ]);
    }
  });

  // Issue 37 item 5: the recorded real answer to GET /api/sessions after a login.
  it("GET /api/sessions without a view answers 200 with an empty body after a login", async () => {
    const created = await new SimClient(h.url).post("/api/sessions", {
      form: { ...credentials, account_href: "/api/accounts/1" },
    });
    expect(created.status, created.text).toBe(204);
    const cookie = created.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const res = await new SimClient(h.url, { cookie }).get("/api/sessions");
    expect([res.status, res.text]).toEqual([200, ""]);
    expect((await h.anonymous.get("/api/sessions")).status).toBe(403);
  });

  it("view=whoami gives only the user and the account; any logged-in user, by cookie or token", async () => {
    const whoami = await h.user2.get("/api/session", { query: { view: "whoami" } });
    expect(whoami.status, whoami.text).toBe(200);
    expect(whoami.json<Session>().links).toEqual([
      { rel: "user", href: "/api/users/2" },
      { rel: "account", href: "/api/accounts/1" },
    ]);
    const viaToken = await (await oauthClient(h.url)).get("/api/sessions", { query: { view: "whoami" } });
    expect(viaToken.json<Session>().links[0]).toEqual({ rel: "user", href: "/api/users/1" });
    const xml = await h.admin.get("/api/session.xml", { query: { view: "whoami" } });
    expect(xml.text).toContain(
      '<session><message>You have successfully logged into the API.</message><links><link rel="user" href="/api/users/1"/>',
    );
  });

  it("refuses another view, and a caller without a session", async () => {
    const bad = await h.admin.get("/api/session", { query: { view: "extended" } });
    expect([bad.status, bad.text]).toEqual([
      400,
      "ParameterError: view must be one of default, whoami (got 'extended')",
    ]);
    const anonymous = await h.anonymous.get("/api/session");
    expect([anonymous.status, anonymous.text]).toEqual([403, "Session cookie is expired or invalid"]);
  });
});

describe("GET /api/sessions/accounts", () => {
  const account = {
    name: "Simulated account",
    created_at: "2025/01/15 09:30:00 +0000",
    updated_at: "2025/01/15 09:30:00 +0000",
    products: ["Cloud Management"],
    links: [
      { rel: "self", href: "/api/accounts/1" },
      { rel: "owner", href: "/api/users/1" },
    ],
  };

  it("lists the accounts of the session's user, with the roles it holds there", async () => {
    for (const path of ["/api/sessions/accounts", "/api/session/accounts"]) {
      const res = await h.admin.get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toBe(
        "application/vnd.svc.account+json;type=collection;charset=utf-8",
      );
      const [only, ...rest] = res.json<Array<Record<string, unknown>>>();
      expect(rest).toEqual([]);
      expect(only).toMatchObject(account);
      expect(only!.permissions).toContain("admin");
    }
    expect((await h.user2.get("/api/sessions/accounts")).json()).toEqual([{ ...account, permissions: [] }]);
    expect((await h.admin.get("/api/sessions/accounts", { query: { view: "extended" } })).status).toBe(200);
    expect((await h.admin.get("/api/sessions/accounts", { query: { view: "whoami" } })).status).toBe(400);
  });

  it("works outside a session with email and password", async () => {
    for (const path of ["/api/sessions/accounts", "/api/session/accounts"]) {
      const res = await h.anonymous.get(path, { query: credentials });
      expect(res.status, res.text).toBe(200);
      expect(res.json()).toEqual([{ ...account, permissions: [] }]);
    }
    // The named user wins over the session's: the credentials say whose accounts to list.
    const named = await h.admin.get("/api/sessions/accounts", { query: credentials });
    expect(named.json()).toEqual([{ ...account, permissions: [] }]);
  });

  it("refuses wrong credentials (401), half of them (400) and no credentials at all (403)", async () => {
    const wrong = await h.anonymous.get("/api/sessions/accounts", {
      query: { ...credentials, password: "nope" },
    });
    expect([wrong.status, wrong.text]).toEqual([401, "AuthenticationError: invalid email or password"]);
    const half = await h.anonymous.get("/api/sessions/accounts", { query: { email: credentials.email } });
    expect([half.status, half.text]).toEqual([
      400,
      "ParameterError: password is required when email is given",
    ]);
    const none = await h.anonymous.get("/api/sessions/accounts");
    expect([none.status, none.text]).toEqual([403, "Session cookie is expired or invalid"]);
  });

  it("on the wrong region's host answers the regional 302, as login does", async () => {
    const region = new SimClient(h.regionUrl);
    const query = "email=user2%40example.com&password=password";
    const res = await region.get("/api/sessions/accounts", { query });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${h.url}/api/sessions/accounts?${query}`);
    const login = await region.post("/api/session", {
      form: { ...credentials, account_href: "/api/accounts/1" },
    });
    expect([login.status, login.headers.get("location")]).toEqual([302, `${h.url}/api/session`]);
    const followed = await h.anonymous.get(res.headers.get("location")!.slice(h.url.length));
    expect(followed.status).toBe(200);
  });
});

describe("GET /api/health-check/", () => {
  it("answers 200 without credentials or version header", async () => {
    const res = await h.anonymous.get("/api/health-check/", { headers: { "x-api-version": "" } });
    expect([res.status, res.text]).toEqual([200, "OK"]);
    expect((await h.anonymous.get("/api/health-check")).status).toBe(200);
  });
});
