import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KubeApiWriter } from "../cache/index.ts";
import { ProblemLog } from "../telemetry/index.ts";
import { FakeClock, memoryLog } from "../testing/index.ts";
import { ConflictError, GoneError } from "./kube.ts";
import { isReported, KubeHttpError, KubeRequestError, RawKube } from "./kube-raw.ts";

describe("RawKube, and KubeApiWriter on it", () => {
  let server: Server;
  let raw: RawKube;
  let writer: KubeApiWriter;
  const seen: { method: string; url: string; body: string; type: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, body, type: req.headers["content-type"] });
        if (req.url === "/missing" || req.url!.endsWith("/gone/status")) {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(JSON.stringify({ kind: "Status", reason: "NotFound", message: 'events "x" not found' }));
          return;
        }
        if (req.url!.endsWith("/raced/status")) {
          res.writeHead(409, { "content-type": "application/json" });
          res.end(JSON.stringify({ kind: "Status", reason: "Conflict" }));
          return;
        }
        if (req.url!.includes("/networks/")) {
          // Not JSON: a write that parsed its answer would fail.
          res.writeHead(200, { "content-type": "application/json" });
          res.end("{not json");
          return;
        }
        res.writeHead(201, { "content-type": "application/json" });
        res.end(JSON.stringify({ metadata: { name: "e1" }, big: "x".repeat(10_000) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: "c",
          server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          skipTLSVerify: true,
        },
      ],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    raw = new RawKube(kc);
    writer = new KubeApiWriter(kc);
  });

  afterAll(async () => {
    await raw.close();
    await writer.close();
    await new Promise((r) => server.close(r));
  });

  it("call parses the answer; send only checks its status", async () => {
    expect(await raw.call("POST", "/ok", { a: 1 })).toMatchObject({ metadata: { name: "e1" } });
    expect(await raw.send("PATCH", "/ok", { b: 2 }, "application/merge-patch+json")).toBeUndefined();
    expect(seen.slice(-2).map((s) => [s.method, s.body, s.type])).toEqual([
      ["POST", '{"a":1}', "application/json"],
      ["PATCH", '{"b":2}', "application/merge-patch+json"],
    ]);
  });

  it("send throws the Status message of an error answer", async () => {
    const error = await raw.send("POST", "/missing", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeHttpError);
    expect((error as KubeHttpError).code).toBe(404);
    expect((error as KubeHttpError).reason).toBe("NotFound");
    expect((error as Error).message).toContain('events "x" not found');
  });

  const ref = (name: string) => ({ kind: "Network", plural: "networks", namespace: "team-a", name });

  it("patchUnread merge-patches status or metadata without reading the answer", async () => {
    await writer.patchUnread(ref("n1"), { status: { href: "/api/networks/1" } });
    await writer.patchUnread(ref("n1"), { metadata: { annotations: { a: null } } });
    expect(seen.slice(-2).map((s) => [s.method, s.url, s.type, s.body])).toEqual([
      [
        "PATCH",
        "/apis/cloud.svc.io/v1alpha1/namespaces/team-a/networks/n1/status",
        "application/merge-patch+json",
        JSON.stringify({ status: { href: "/api/networks/1" } }),
      ],
      [
        "PATCH",
        "/apis/cloud.svc.io/v1alpha1/namespaces/team-a/networks/n1",
        "application/merge-patch+json",
        JSON.stringify({ metadata: { annotations: { a: null } } }),
      ],
    ]);
  });

  it("patchUnread: 404 is GoneError, 409 ConflictError, as for the other writes", async () => {
    await expect(writer.patchUnread(ref("gone"), { status: {} })).rejects.toBeInstanceOf(GoneError);
    await expect(writer.patchUnread(ref("raced"), { status: {} })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("RawKube reporting to a ProblemLog", () => {
  let server: Server;
  let refusing = true;
  const { log, lines } = memoryLog("info");
  const clock = new FakeClock();
  const problems = new ProblemLog({ log, clock, gatherMs: 0 });
  let raw: RawKube;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (refusing && req.url!.endsWith("/status")) {
        res.writeHead(403, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            kind: "Status",
            reason: "Forbidden",
            message:
              'deployments.cloud.svc.io "web" is forbidden: User "system:serviceaccount:x:y" cannot patch resource "deployments/status" in API group "cloud.svc.io" in the namespace "a"',
          }),
        );
        return;
      }
      res.writeHead(req.url!.includes("/missing") ? 404 : 200, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    const port = (server.address() as AddressInfo).port;
    kc.loadFromOptions({
      clusters: [{ name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    raw = new RawKube(kc, problems);
  });

  afterAll(async () => {
    await raw.close();
    await new Promise((r) => server.close(r));
  });

  const status = "/apis/cloud.svc.io/v1alpha1/namespaces/a/deployments/web/status";

  it("logs a refused write once, marks the error reported, and logs once more when it works again", async () => {
    for (let i = 0; i < 20; i++) {
      const error = await raw.send("PATCH", status, {}).catch((e: unknown) => e);
      expect(isReported(error)).toBe(true);
    }
    expect(lines.map((l) => l.msg)).toEqual([
      expect.stringMatching(
        /^cannot patch deployments\.cloud\.svc\.io\/status in namespace a \(403 Forbidden: .*\); the operator's ServiceAccount lacks `patch` on deployments\.cloud\.svc\.io\/status: apply deploy\/operator\/rbac\.yaml$/,
      ),
    ]);
    refusing = false;
    await raw.send("PATCH", status, {});
    expect(lines.at(-1)!.msg).toMatch(
      /^resolved: patch deployments\.cloud\.svc\.io\/status in namespace a works again/,
    );
  });

  it("leaves a 404 of one object to its caller, unreported", async () => {
    const error = await raw.call("GET", "/api/v1/namespaces/a/secrets/missing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeHttpError);
    expect(isReported(error)).toBe(false);
  });

  it("reports a request nobody answers as the apiserver unreachable, naming it", async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "c", server: "http://127.0.0.1:9", skipTLSVerify: true }],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    const down = new RawKube(kc, problems);
    const error = await down.send("POST", "/api/v1/namespaces/a/events", {}).catch((e: unknown) => e);
    await down.close();
    expect(error).toBeInstanceOf(KubeRequestError);
    expect((error as Error).message).toMatch(/^POST \/api\/v1\/namespaces\/a\/events failed: ECONNREFUSED/);
    expect(isReported(error)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ reason: "unreachable", verb: "create", resource: "events" });
    expect(lines.at(-1)!.msg).toContain("cannot reach the apiserver at http://127.0.0.1:9");
  });
});
