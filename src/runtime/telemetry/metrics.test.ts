import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { Gauge, Registry } from "prom-client";
import { afterAll, describe, expect, it } from "vitest";
import type { ConditionStatus } from "../sdk/index.ts";
import { type KindObjects, OperatorMetrics, resourceConditionLines, startHealthServer } from "./metrics.ts";

describe("OperatorMetrics", () => {
  const registry = new Registry();
  const metrics = new OperatorMetrics(registry);
  let ready = false;
  const cache: KindObjects[] = [
    {
      kind: "Deployment",
      objects: [
        {
          metadata: { namespace: "ns", name: "web" },
          status: {
            conditions: [
              { type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" },
            ],
          },
        },
      ],
    },
  ];
  const serverP = startHealthServer({
    registry,
    host: "127.0.0.1",
    port: 0,
    ready: () => ready,
    notReady: () => ["Account: cannot list accounts.cloud.svc.io (403 Forbidden)"],
    extra: () => resourceConditionLines(cache),
    extraNames: ["svc_operator_resource_condition"],
  });
  afterAll(async () => (await serverP).close());

  it("records reconciles, API calls and conditions per kind", async () => {
    metrics.reconciled("Deployment", "ready", 0.02);
    metrics.apiCall({
      method: "GET",
      route: "/api/deployments/:id",
      status: 200,
      durationMs: 12,
      rateLimitWaitMs: 300,
    });
    metrics.conditions.change("Deployment", undefined, {
      status: {
        conditions: [{ type: "Ready", status: "True", reason: "", message: "", lastTransitionTime: "" }],
      },
    });
    const text = await registry.metrics();
    expect(text).toContain('svc_operator_reconcile_total{kind="Deployment",result="ready"} 1');
    expect(text).toContain(
      'svc_operator_api_calls_total{method="GET",route="/api/deployments/:id",status="200"} 1',
    );
    expect(text).toContain('svc_operator_resources{kind="Deployment",condition="Ready",status="True"} 1');
    // The rate limiter's wait: one exchange held back 300 ms.
    expect(text).toContain('svc_operator_api_rate_limit_wait_seconds_bucket{le="0.25"} 0');
    expect(text).toContain('svc_operator_api_rate_limit_wait_seconds_bucket{le="0.5"} 1');
    expect(text).toContain("svc_operator_api_rate_limit_wait_seconds_sum 0.3");
    metrics.informerErrors.inc({ kind: "Account", reason: "forbidden" });
    expect(await registry.metrics()).toContain(
      'svc_operator_informer_errors_total{kind="Account",reason="forbidden"} 1',
    );
  });

  it("serves /metrics, /healthz and /readyz", async () => {
    const server = await serverP;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    // Says why: which informer cannot list, and the cause.
    expect(await notReady.text()).toBe(
      "not ready\nAccount: cannot list accounts.cloud.svc.io (403 Forbidden)\n",
    );
    ready = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const m = await fetch(`${base}/metrics`);
    expect(m.status).toBe(200);
    const text = await m.text();
    expect(text).toContain("svc_operator_workqueue_depth");
    // The per-resource family comes after the registry's, whole lines, from the cache as it is now.
    expect(text).toContain(
      '\nsvc_operator_resource_condition{kind="Deployment",namespace="ns",name="web",condition="Ready",reason="Available"} 1\n',
    );
    expect(text.indexOf("# TYPE svc_operator_resource_condition gauge")).toBeGreaterThan(
      text.indexOf("svc_operator_workqueue_depth"),
    );
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it("counts svc_operator_resources from the cache's changes: each moves the old version's conditions out", async () => {
    const ready = (status: ConditionStatus) => ({
      status: { conditions: [{ type: "Ready", status, reason: "", message: "", lastTransitionTime: "" }] },
    });
    metrics.conditions.track(["Volume", "Network"]);
    metrics.conditions.change("Volume", undefined, ready("True"));
    metrics.conditions.change("Volume", undefined, ready("True"));
    metrics.conditions.change("Volume", undefined, ready("False"));
    let text = await registry.metrics();
    expect(text).toContain('svc_operator_resources{kind="Volume",condition="Ready",status="True"} 2');
    expect(text).toContain('svc_operator_resources{kind="Volume",condition="Ready",status="False"} 1');
    // A kind with no objects yet shows its rows at 0.
    expect(text).toContain('svc_operator_resources{kind="Network",condition="Stalled",status="True"} 0');
    metrics.conditions.change("Volume", ready("False"), ready("True"));
    metrics.conditions.change("Volume", ready("True"), undefined);
    text = await registry.metrics();
    expect(text).toContain('svc_operator_resources{kind="Volume",condition="Ready",status="True"} 2');
    expect(text).toContain('svc_operator_resources{kind="Volume",condition="Ready",status="False"} 0');
  });

  it("/metrics?name[]= renders only the named families", async () => {
    const server = await serverP;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const one = await (await fetch(`${base}/metrics?name[]=svc_operator_reconcile_total`)).text();
    expect(one).toContain("# TYPE svc_operator_reconcile_total counter");
    expect(one).not.toContain("svc_operator_workqueue_depth");
    expect(one).not.toContain("svc_operator_resource_condition");
    const two = await (
      await fetch(
        `${base}/metrics?name[]=svc_operator_resource_condition&name[]=svc_operator_leader&name[]=nope`,
      )
    ).text();
    expect(two).toContain("# TYPE svc_operator_leader gauge");
    expect(two).toContain('svc_operator_resource_condition{kind="Deployment",namespace="ns",name="web"');
    expect(two).not.toContain("svc_operator_reconcile_total");
  });
});

/** Sends one raw request and answers the status line the server wrote. */
function statusLine(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += String(d);
    });
    socket.on("close", () => resolve(answer.split("\r\n")[0] ?? ""));
    socket.on("error", () => {});
    socket.end(request);
  });
}

describe("startHealthServer under hostile requests", () => {
  it("answers `GET //` and absolute-form targets without failing, and keeps serving", async () => {
    const failures: unknown[] = [];
    const server = await startHealthServer({
      registry: new Registry(),
      host: "127.0.0.1",
      port: 0,
      ready: () => true,
      log: { error: (fields) => failures.push(fields.err) },
    });
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await statusLine(port, "GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toBe(
        "HTTP/1.1 404 Not Found",
      );
      expect(
        await statusLine(port, "GET http://x/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      ).toBe("HTTP/1.1 200 OK");
      expect(await statusLine(port, "GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toBe(
        "HTTP/1.1 400 Bad Request",
      );
      const post = await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST", body: "x" });
      expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
      expect(failures).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it("a metric that throws while collected is a 500 and one onError call", async () => {
    const registry = new Registry();
    new Gauge({
      name: "broken",
      help: "throws",
      registers: [registry],
      collect: () => {
        throw new Error("collect failed");
      },
    });
    const failures: string[] = [];
    const server = await startHealthServer({
      registry,
      host: "127.0.0.1",
      port: 0,
      ready: () => true,
      log: { error: (fields) => failures.push((fields.err as Error).message) },
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(500);
      expect(failures).toEqual(["collect failed"]);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe("resourceConditionLines", () => {
  const object = (
    name: string,
    conditions: { type: string; status: ConditionStatus; reason: string }[],
  ): KindObjects["objects"][number] => ({
    metadata: { namespace: "ns", name },
    status: { conditions: conditions.map((c) => ({ ...c, message: "", lastTransitionTime: "" })) },
  });

  it("renders one series per resource and condition: 1 True, 0 False, -1 Unknown", () => {
    const text = [
      ...resourceConditionLines([
        {
          kind: "Volume",
          objects: [
            object("a", [
              { type: "Ready", status: "False", reason: "Creating" },
              { type: "Stalled", status: "True", reason: "InvalidSpec" },
              { type: "Synced", status: "Unknown", reason: "" },
            ]),
            { metadata: { namespace: "ns", name: "no-status" } },
          ],
        },
        {
          kind: "Account",
          objects: [object("default", [{ type: "Ready", status: "True", reason: "Verified" }])],
        },
      ]),
    ].join("");
    expect(text.split("\n")).toEqual([
      "# HELP svc_operator_resource_condition 1 when the resource's condition is True, 0 when False, -1 when Unknown (one series per resource and condition)",
      "# TYPE svc_operator_resource_condition gauge",
      'svc_operator_resource_condition{kind="Volume",namespace="ns",name="a",condition="Ready",reason="Creating"} 0',
      'svc_operator_resource_condition{kind="Volume",namespace="ns",name="a",condition="Stalled",reason="InvalidSpec"} 1',
      'svc_operator_resource_condition{kind="Volume",namespace="ns",name="a",condition="Synced",reason=""} -1',
      'svc_operator_resource_condition{kind="Account",namespace="ns",name="default",condition="Ready",reason="Verified"} 1',
      "",
    ]);
  });

  it("escapes label values as the text format requires", () => {
    const text = [
      ...resourceConditionLines([
        { kind: "Route", objects: [object("r", [{ type: "Ready", status: "False", reason: 'a"b\\c\nd' }])] },
      ]),
    ].join("");
    expect(text).toContain('reason="a\\"b\\\\c\\nd"} 0\n');
  });

  it("yields chunks of whole lines", () => {
    const objects = Array.from({ length: 500 }, (_, i) =>
      object(`d${i}`, [
        { type: "Ready", status: "True", reason: "Available" },
        { type: "Synced", status: "True", reason: "ReconcileSuccess" },
      ]),
    );
    const chunks = [...resourceConditionLines([{ kind: "Deployment", objects }], 4096)];
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) expect(c.endsWith("\n")).toBe(true);
    expect(
      chunks
        .join("")
        .split("\n")
        .filter((l) => l.startsWith("svc_operator_resource_condition{")),
    ).toHaveLength(1000);
  });
});
