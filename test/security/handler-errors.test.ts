// Issue 22 item 1: an exception in a request handler becomes a 500 and exactly one log line, and
// the server keeps serving (the metrics server's case is in src/runtime/telemetry/metrics.test.ts, the
// shared wrapper's in src/lib/http/safe-server.test.ts).
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { defaultPresenter } from "../../src/devcluster/admission-adapter.ts";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { defineResource } from "../../src/simulator/resource.ts";
import { resources } from "../../src/simulator/resources/index.ts";
import { access } from "../../src/simulator/roles.ts";
import { type Harness, startSimulator } from "../simulator/harness.ts";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const crash = defineResource({
  name: "crash",
  collections: {},
  register(sim) {
    sim.route({
      method: "GET",
      path: "/api/crash",
      access: access.public,
      handler() {
        throw new TypeError("a bug in a handler");
      },
    });
  },
});

describe("a handler that throws", () => {
  it("simulator: 500, one error line naming the request, and the next request is served", async () => {
    const lines: Array<{ level: number; msg: string; path?: string }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const h: Harness = await startSimulator({
      resources: [...resources, crash],
      logger: pino({ level: "info" }, sink),
    });
    closers.push(() => h.close());
    lines.length = 0;
    const res = await h.anonymous.get("/api/crash?secret=x");
    expect([res.status, res.text]).toEqual([500, "InternalServerError: the simulator failed; see its log"]);
    const errors = lines.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "simulator request failed", path: "/api/crash" });
    expect(JSON.stringify(errors[0])).not.toContain("secret=x");
    expect((await h.admin.get("/api/deployments/1")).status).toBe(200);
  });

  it("devcluster: a 500 Status, one error line, and the next request is served", async () => {
    const logged: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
    const cluster: DevCluster = await createDevCluster({
      presenter: {
        ...defaultPresenter,
        openApiV2: () => {
          throw new TypeError("a bug in a handler");
        },
      },
      log: (level, message, fields) => logged.push({ level, message, ...(fields ? { fields } : {}) }),
    });
    closers.push(() => cluster.close());
    const auth = { authorization: `Bearer ${cluster.token}` };
    const res = await fetch(`${cluster.url}/openapi/v2`, { headers: auth });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      kind: "Status",
      code: 500,
      reason: "InternalError",
      message: "Internal error occurred: a bug in a handler",
    });
    const errors = logged.filter((l) => l.level === "error");
    expect(errors).toEqual([
      {
        level: "error",
        message: "request failed",
        fields: { method: "GET", path: "/openapi/v2", error: "a bug in a handler" },
      },
    ]);
    expect((await fetch(`${cluster.url}/api/v1/namespaces`, { headers: auth })).status).toBe(200);
  });
});
