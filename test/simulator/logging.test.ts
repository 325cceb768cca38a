import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { login, oauthClient, SimClient, startSimulator } from "./harness.ts";

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});
const h = await startSimulator({ logger: pino({ level: "info" }, sink) });
afterAll(() => h.close());

describe("request log", () => {
  it("writes one line per request with method, path, route template, status and duration — and no secrets", async () => {
    lines.length = 0;
    const admin = await login(h.url, "admin@example.com", "password");
    const bearer = await oauthClient(h.url);
    await admin.get("/api/deployments/1", { query: { view: "inputs" } });
    await bearer.get("/api/deployments/1");
    await new SimClient(h.url).get("/api/nowhere");
    await new Promise((resolve) => setImmediate(resolve));
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests.map((l) => [l.method, l.path, l.route, l.status])).toEqual([
      ["POST", "/api/session", "/api/session", 204],
      ["POST", "/api/oauth2/", "/api/oauth2", 200],
      ["GET", "/api/deployments/1", "/api/deployments/:id", 200],
      ["GET", "/api/deployments/1", "/api/deployments/:id", 200],
      ["GET", "/api/nowhere", "(unmatched)", 404],
    ]);
    expect(requests.every((l) => typeof l.ms === "number")).toBe(true);
    const text = JSON.stringify(lines);
    for (const secret of [
      "password",
      "dev-refresh-token",
      "_session_id",
      "svc_global_session",
      "Bearer",
      "access_token",
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
