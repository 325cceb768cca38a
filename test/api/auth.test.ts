import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../simulator/harness.ts";
import { type AuthMode, rejection, simStats, testApi } from "./helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

describe.each<AuthMode>(["oauth", "session"])("%s authentication", (mode) => {
  it("authenticates once for many concurrent calls", async () => {
    const t = testApi(h, { mode });
    const before = await simStats(h);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.api.deployments.index()));
    expect(results.every((r) => r.length === 2)).toBe(true);
    const authRoute = mode === "oauth" ? "/api/oauth2/" : "/api/session";
    expect(t.events.filter((e) => e.route === authRoute)).toHaveLength(1);
    const after = await simStats(h);
    expect((after.get("GET /api/deployments 200") ?? 0) - (before.get("GET /api/deployments 200") ?? 0)).toBe(
      10,
    );
    await t.close();
  });

  it("renews the credential once when the simulator's clock expires it", async () => {
    const t = testApi(h, { mode });
    await t.api.deployments.show("/api/deployments/1");
    await h.hook("clock", { advanceSeconds: 7201 });
    const d = await t.api.deployments.show("/api/deployments/1");
    expect(d.name).toBe("Production");
    const statuses = t.events.map((e) => `${e.route} ${e.status}`);
    const expired = mode === "oauth" ? "/api/deployments/:id 401" : "/api/deployments/:id 403";
    const renewal = mode === "oauth" ? "/api/oauth2/ 200" : "/api/session 204";
    expect(statuses.slice(-3)).toEqual([expired, renewal, "/api/deployments/:id 200"]);
    await t.close();
  });

  it("renews once when many concurrent calls meet the expiry together", async () => {
    const t = testApi(h, { mode });
    await t.api.deployments.index();
    await h.hook("clock", { advanceSeconds: 7201 });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.api.deployments.show("/api/deployments/2")),
    );
    expect(results.every((d) => d.name === "Staging")).toBe(true);
    const authRoute = mode === "oauth" ? "/api/oauth2/" : "/api/session";
    expect(t.events.filter((e) => e.route === authRoute)).toHaveLength(2);
    await t.close();
  });

  it("never logs a credential", async () => {
    const t = testApi(h, { mode });
    await t.api.deployments.index();
    await h.hook("clock", { advanceSeconds: 7201 });
    await t.api.deployments.index();
    await rejection(t.api.deployments.show("/api/deployments/999"));
    expect(t.logs.length).toBeGreaterThan(3);
    const output = t.logs.join("\n");
    const secrets = [...t.sentCredentials, "dev-refresh-token"];
    if (mode === "session") secrets.push("admin@example.com:password", '"password":"password"');
    expect(t.sentCredentials.size).toBeGreaterThan(0);
    for (const secret of secrets) expect(output).not.toContain(secret);
    await t.close();
  });
});

describe("oauth refresh timing", () => {
  it("refreshes at half of expires_in on the client's clock, before the service refuses the token", async () => {
    let now = Date.UTC(2026, 0, 1);
    const t = testApi(h, { now: () => now });
    await t.api.deployments.index();
    now += 3599_000;
    await t.api.deployments.index();
    expect(t.events.filter((e) => e.route === "/api/oauth2/")).toHaveLength(1);
    now += 2_000; // past half of the 7200 s lifetime
    await h.hook("clock", { advanceSeconds: 3601 });
    await t.api.deployments.index();
    expect(t.events.map((e) => `${e.route} ${e.status}`).slice(-2)).toEqual([
      "/api/oauth2/ 200",
      "/api/deployments 200",
    ]);
    expect(t.events.some((e) => e.status === 401)).toBe(false);
    await t.close();
  });
});

describe("authentication failures", () => {
  it("a wrong refresh token is unauthorized, not retried", async () => {
    const t = testApi(h, { auth: { type: "oauth", refreshToken: "wrong" } });
    const error = await rejection(t.api.deployments.index());
    expect(error).toMatchObject({ kind: "unauthorized", status: 401 });
    expect(t.events.map((e) => `${e.route} ${e.status}`)).toEqual(["/api/oauth2/ 401"]);
    await t.close();
  });

  it("a missing-role 403 does not log in again", async () => {
    const t = testApi(h, { auth: { type: "session", email: "user2@example.com", password: "password" } });
    const error = await rejection(t.api.deployments.create({ name: "nope" }));
    expect(error).toMatchObject({ kind: "unauthorized", status: 403, errorType: "PermissionDenied" });
    expect(t.events.filter((e) => e.route === "/api/session")).toHaveLength(1);
    await t.close();
  });
});
