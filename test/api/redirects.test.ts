import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../simulator/harness.ts";
import { rejection, testApi } from "./helpers.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

describe("regional redirects", () => {
  it("follows the 302 of a wrong regional host once, then calls the account's host directly", async () => {
    const t = testApi(h, { endpoint: h.regionUrl });
    const first = await t.api.deployments.index();
    expect(first.map((d) => d.name)).toEqual(["Production", "Staging"]);
    expect(t.api.client.currentOrigin).toBe(h.url);
    await t.api.deployments.show("/api/deployments/1");
    await t.api.deployments.show("/api/deployments/2");
    // Only the token grant (the very first call) met the wrong host.
    expect(t.events.filter((e) => e.status === 302).map((e) => e.route)).toEqual(["/api/oauth2/"]);
    await t.close();
  });

  it.each(["session", "oauth"] as const)("re-sends a POST and a PUT with their bodies (%s)", async (mode) => {
    const t = testApi(h, { endpoint: h.regionUrl, mode });
    const href = await t.api.deployments.create({ name: "Redirected", description: "posted twice" });
    await t.api.deployments.update(href, { description: "put after redirect" });
    const d = await t.api.deployments.show(href);
    expect(d).toMatchObject({ name: "Redirected", description: "put after redirect" });
    await t.close();
  });

  it("re-sends every method of a client created before the host was known", async () => {
    const t = testApi(h, { endpoint: h.regionUrl, mode: "session" });
    // The login POST is the first call: it is redirected with its form body.
    await t.api.deployments.lock("/api/deployments/1");
    expect(t.events.map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      "POST /api/session 302",
      "POST /api/session 204",
      "POST /api/deployments/:id/lock 204",
    ]);
    expect((await t.api.deployments.show("/api/deployments/1")).locked).toBe(true);
    await t.close();
  });

  it("follows the oauth2 301 to the account's cluster with the POST and its body, and keeps that host", async () => {
    // The token request names account 1 at the other cluster (the region host), which answers
    // 301 to the account's cluster; the grant is re-posted there and later calls go there directly.
    const t = testApi(h, {
      endpoint: h.regionUrl,
      accountId: 1,
      auth: { type: "oauth", refreshToken: "dev-refresh-token", sendAccountId: true },
    });
    await t.api.deployments.index();
    await t.api.deployments.show("/api/deployments/1");
    expect(t.events.map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      "POST /api/oauth2/ 301",
      "POST /api/oauth2/ 200",
      "GET /api/deployments 200",
      "GET /api/deployments/:id 200",
    ]);
    expect(t.api.client.currentOrigin).toBe(h.url);
    await t.close();
  });

  it("an account no cluster hosts ends after one 301 with a not-found error, not a redirect loop", async () => {
    const t = testApi(h, {
      accountId: 77,
      auth: { type: "oauth", refreshToken: "dev-refresh-token", sendAccountId: true },
    });
    const error = await rejection(t.api.deployments.index());
    expect(error).toMatchObject({ kind: "notFound" });
    expect(t.events.map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      "POST /api/oauth2/ 301",
      "POST /api/oauth2/ 422",
    ]);
    await t.close();
  });

  it("refuses a redirect to a host outside the service domain, naming it", async () => {
    // The region host redirects to 127.0.0.1; a client whose service domain is `localhost` refuses it.
    const t = testApi(h, { endpoint: h.regionUrl.replace("127.0.0.1", "localhost") });
    const error = await rejection(t.api.deployments.index());
    expect(error).toMatchObject({ code: "SVC_REDIRECT_REFUSED", kind: "invalid" });
    expect(error.message).toContain("host 127.0.0.1: the endpoint's host localhost allows only itself");
    expect(t.events).toHaveLength(1);
    expect(t.api.client.currentOrigin).toContain("localhost");
    await t.close();
  });
});
