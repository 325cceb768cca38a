import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { afterAll, describe, expect, it } from "vitest";
import { OperatorMetrics, startHealthServer } from "./metrics.ts";

describe("OperatorMetrics", () => {
  const registry = new Registry();
  const metrics = new OperatorMetrics(registry);
  let ready = false;
  const serverP = startHealthServer({ registry, host: "127.0.0.1", port: 0, ready: () => ready });
  afterAll(async () => (await serverP).close());

  it("records reconciles, API calls and per-resource conditions", async () => {
    metrics.reconciled("Deployment", "ready", 0.02);
    metrics.apiCall({ method: "GET", route: "/api/deployments/:id", status: 200, durationMs: 12 });
    metrics.setConditions("Deployment", "ns", "web", [
      { type: "Ready", status: "False", reason: "Creating", message: "", lastTransitionTime: "" },
    ]);
    metrics.setConditions("Deployment", "ns", "web", [
      { type: "Ready", status: "True", reason: "Available", message: "", lastTransitionTime: "" },
    ]);
    metrics.countConditions("Deployment", [
      {
        status: {
          conditions: [{ type: "Ready", status: "True", reason: "", message: "", lastTransitionTime: "" }],
        },
      },
    ]);
    const text = await registry.metrics();
    expect(text).toContain('svc_operator_reconcile_total{kind="Deployment",result="ready"} 1');
    expect(text).toContain(
      'svc_operator_api_calls_total{method="GET",route="/api/deployments/:id",status="200"} 1',
    );
    expect(text).toContain(
      'svc_operator_resource_condition{kind="Deployment",namespace="ns",name="web",condition="Ready",reason="Available"} 1',
    );
    expect(text).not.toContain('reason="Creating"');
    expect(text).toContain('svc_operator_resources{kind="Deployment",condition="Ready",status="True"} 1');
  });

  it("serves /metrics, /healthz and /readyz", async () => {
    const server = await serverP;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    ready = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const m = await fetch(`${base}/metrics`);
    expect(m.status).toBe(200);
    expect(await m.text()).toContain("svc_operator_workqueue_depth");
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
