import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { login, startSimulator } from "./harness.ts";

const h = await startSimulator();
afterAll(() => h.close());
beforeEach(async () => {
  await h.hook("reset");
});

describe("/__sim/state and /__sim/reset", () => {
  it("state lists every object; reset restores the seed and keeps sessions", async () => {
    const before = await h.state();
    expect(before.deployments).toHaveLength(2);
    expect(before.deployments![0]).toMatchObject({ id: "1", name: "Production" });
    await h.admin.post("/api/deployments", { form: { deployment: { name: "extra" } } });
    expect((await h.state()).deployments).toHaveLength(3);
    expect((await h.hook("reset")).status).toBe(204);
    expect(await h.state()).toEqual(before);
    expect((await h.admin.get("/api/deployments")).status).toBe(200);
  });
});

describe("/__sim/stats", () => {
  it("counts requests by method, route template and status", async () => {
    await h.admin.get("/api/deployments/1");
    await h.admin.get("/api/deployments/2");
    await h.admin.get("/api/deployments/99");
    await h.admin.get("/api/nowhere");
    const stats = (await h.hooks.get("/__sim/stats")).json<{
      total: number;
      requests: Array<{ method: string; route: string; status: number; count: number }>;
    }>();
    expect(stats.requests).toContainEqual({
      method: "GET",
      route: "/api/deployments/:id",
      status: 200,
      count: 2,
    });
    expect(stats.requests).toContainEqual({
      method: "GET",
      route: "/api/deployments/:id",
      status: 422,
      count: 1,
    });
    expect(stats.requests).toContainEqual({ method: "GET", route: "(unmatched)", status: 404, count: 1 });
    expect(stats.total).toBe(4);
  });

  it("tells how many requests were in progress at once, and for how long in all", async () => {
    // Long enough that the five overlap even on a loaded machine.
    await h.hook("faults", { latencyMs: 300 });
    try {
      await Promise.all(Array.from({ length: 5 }, () => h.admin.get("/api/deployments/1")));
    } finally {
      await h.hook("faults", {});
    }
    const stats = (await h.hooks.get("/__sim/stats")).json<{
      inFlight: number;
      peakInFlight: number;
      busyMs: number;
    }>();
    expect(stats.peakInFlight).toBeGreaterThanOrEqual(5);
    // Node's timers count whole milliseconds of the loop's clock: one may end under a millisecond
    // early by performance.now().
    expect(stats.busyMs).toBeGreaterThanOrEqual(5 * (300 - 1));
    // The stats request itself is a hook, not counted.
    expect(stats.inFlight).toBe(0);
  });
});

describe("/__sim/faults", () => {
  afterAll(async () => {
    await h.hook("faults", {});
  });

  it("validates the body, naming the field", async () => {
    const bad = await h.hook("faults", { error500: 2 });
    expect([bad.status, bad.text]).toEqual([400, "ParameterError: error500: must be between 0 and 1"]);
    const unknown = await h.hook("faults", { explode: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("explode");
    const latency = await h.hook("faults", { latencyMs: -1 });
    expect(latency.text).toBe("ParameterError: latencyMs: must be 0 or more");
    const notJson = await h.hooks.post("/__sim/faults", {
      form: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
  });

  it("error500, error503 and throttle429 (with Retry-After) answer their status; {} clears", async () => {
    await h.hook("faults", { error500: 1 });
    expect((await h.admin.get("/api/deployments")).status).toBe(500);
    await h.hook("faults", { error503: 1 });
    expect((await h.admin.get("/api/deployments")).status).toBe(503);
    await h.hook("faults", { throttle429: 1, retryAfterSeconds: 3 });
    const throttled = await h.admin.get("/api/deployments");
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe("3");
    expect((await h.hooks.get("/__sim/faults")).json()).toEqual({ throttle429: 1, retryAfterSeconds: 3 });
    // test hooks are never faulted
    expect((await h.hooks.get("/__sim/state")).status).toBe(200);
    await h.hook("faults", {});
    expect((await h.admin.get("/api/deployments")).status).toBe(200);
    expect((await h.hooks.get("/__sim/faults")).json()).toEqual({});
  });

  it("faulted calls change nothing", async () => {
    await h.hook("faults", { error500: 1 });
    const res = await h.expectUnchanged(() =>
      h.admin.post("/api/deployments", { form: { deployment: { name: "faulted" } } }),
    );
    expect(res.status).toBe(500);
  });

  it("reset drops the connection without handling the call", async () => {
    await h.hook("faults", { reset: 1 });
    await expect(
      h.admin.post("/api/deployments", { form: { deployment: { name: "dropped" } } }),
    ).rejects.toThrow();
    await h.hook("faults", {});
    expect((await h.state()).deployments!.map((d) => d.name)).not.toContain("dropped");
  });

  it("commitThenDrop applies a create or update, then drops the connection", async () => {
    await h.hook("faults", { commitThenDrop: 1 });
    await expect(
      h.admin.post("/api/deployments", { form: { deployment: { name: "committed" } } }),
    ).rejects.toThrow();
    await expect(
      h.admin.put("/api/deployments/1", { form: { deployment: { description: "changed" } } }),
    ).rejects.toThrow();
    // reads are answered normally
    expect((await h.admin.get("/api/deployments/1")).status).toBe(200);
    // a refused write is answered (nothing was committed)
    expect((await h.admin.post("/api/deployments", { form: {} })).status).toBe(400);
    await h.hook("faults", {});
    const state = await h.state();
    expect(state.deployments!.map((d) => d.name)).toContain("committed");
    expect(state.deployments!.find((d) => d.id === "1")!.description).toBe("changed");
    const stats = (await h.hooks.get("/__sim/stats")).json<{
      requests: Array<{ route: string; status: number }>;
    }>();
    expect(stats.requests).toContainEqual(expect.objectContaining({ route: "/api/deployments", status: 0 }));
  });

  it("latencyMs and jitterMs delay the answer", async () => {
    await h.hook("faults", { latencyMs: 60, jitterMs: 10 });
    const started = performance.now();
    expect((await h.admin.get("/api/deployments/1")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });
});

describe("/__sim/clock", () => {
  it("advances the clock, validated", async () => {
    const before = (await h.hooks.get("/__sim/clock")).json<{ now: string }>().now;
    const res = await h.hook("clock", { advanceSeconds: 90 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json<{ now: string }>().now) - Date.parse(before)).toBe(90_000);
    const bad = await h.hook("clock", { advanceSeconds: "x" });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^ParameterError: advanceSeconds: /);
    expect((await h.hooks.get("/__sim/nothing")).status).toBe(404);
  });

  it("timestamps of created objects come from the clock", async () => {
    await h.admin.post("/api/permissions", {
      form: { permission: { user_href: "/api/users/2", role_title: "observer" } },
    });
    const p = (await h.admin.get("/api/permissions/2-observer")).json<{ created_at: string }>();
    const now = (await h.hooks.get("/__sim/clock")).json<{ now: string }>().now;
    const d = new Date(now);
    const pad = (n: number) => String(n).padStart(2, "0");
    expect(p.created_at).toBe(
      `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`,
    );
  });
});

describe("the hook token", () => {
  it("is required in X-Simulator-Token: missing or wrong is 401 naming the header", async () => {
    const missing = await h.anonymous.get("/__sim/state");
    expect(missing.status).toBe(401);
    expect(missing.text).toContain("missing X-Simulator-Token header");
    const wrong = await h.anonymous.post("/__sim/reset", {
      headers: { "x-simulator-token": "not-the-token" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("wrong X-Simulator-Token header");
    for (const hook of ["stats", "faults", "clock"]) {
      expect((await h.anonymous.get(`/__sim/${hook}`)).status).toBe(401);
    }
    // Nothing was changed by the refused calls.
    await h.admin.post("/api/deployments", { form: { deployment: { name: "kept" } } });
    expect((await h.anonymous.post("/__sim/reset")).status).toBe(401);
    expect((await h.state()).deployments!.map((d) => d.name)).toContain("kept");
  });

  it("is checked before the body is read", async () => {
    const res = await h.anonymous.post("/__sim/faults", {
      form: `{"latencyMs": ${"[".repeat(100_000)}`,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
    expect((await h.hooks.get("/__sim/faults")).json()).toEqual({});
  });

  it("comes from the hookToken option, else SVC_SIMULATOR_TOKEN", async () => {
    expect(h.sim.hookToken).toBe(process.env.SVC_SIMULATOR_TOKEN);
    const own = await startSimulator({ hookToken: "an-injected-token-0123" });
    try {
      expect((await own.hooks.get("/__sim/stats")).status).toBe(200);
      expect(
        (await own.anonymous.get("/__sim/stats", { headers: { "x-simulator-token": h.sim.hookToken } }))
          .status,
      ).toBe(401);
    } finally {
      await own.close();
    }
    await expect(startSimulator({ hookToken: "short" })).rejects.toThrow(
      "hookToken: must be 16 to 256 visible ASCII characters",
    );
  });
});

describe("hook bodies", () => {
  it("are at most 1 MiB: more is 413 naming the limit", async () => {
    const res = await h.hooks.post("/__sim/faults", {
      form: JSON.stringify({ latencyMs: 1, pad: "x".repeat(2 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.text).toBe("ParameterError: hook body is larger than 1048576 bytes (the limit)");
    expect((await h.hooks.get("/__sim/faults")).json()).toEqual({});
  });
});

describe("/__sim/state redacts credentials", () => {
  it("shows that users have a password and a refresh token, never their values", async () => {
    const users = (await h.state()).users!;
    expect(users.length).toBeGreaterThan(0);
    const admin = users.find((u) => u.id === "1")!;
    expect(admin).toMatchObject({
      email: "admin@example.com",
      password: "[redacted]",
      refresh_token: "[redacted]",
    });
    const text = (await h.hooks.get("/__sim/state")).text;
    expect(text).not.toContain("dev-refresh-token");
    expect(text).not.toContain('"password":"password"');
    // The store itself keeps them: logins still work.
    expect((await login(h.url, "admin@example.com", "password")).base).toBe(h.url);
  });
});
