import { createServer, type Server } from "node:http";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { Condition } from "./conditions.ts";

/** The operator's prom-client metrics, on an injected registry (no global default registry). */
export class OperatorMetrics {
  readonly reconcileTotal: Counter<"kind" | "result">;
  readonly reconcileDuration: Histogram<"kind">;
  readonly queueDepth: Gauge;
  readonly retries: Counter<"kind">;
  readonly apiCalls: Counter<"method" | "route" | "status">;
  readonly apiDuration: Histogram<"method" | "route">;
  readonly resourcesByCondition: Gauge<"kind" | "condition" | "status">;
  readonly resourceCondition: Gauge<"kind" | "namespace" | "name" | "condition" | "reason">;
  readonly resyncCalls: Counter<"kind">;
  readonly leader: Gauge;
  /** Label sets currently exported per resource, so stale reasons can be removed. */
  private readonly conditionSeries = new Map<string, Record<string, string>[]>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.reconcileTotal = new Counter({
      name: "svc_operator_reconcile_total",
      help: "Reconciles by kind and result (ready, progressing, waiting, terminal, error, paused)",
      labelNames: ["kind", "result"],
      registers,
    });
    this.reconcileDuration = new Histogram({
      name: "svc_operator_reconcile_duration_seconds",
      help: "Reconcile duration by kind",
      labelNames: ["kind"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.queueDepth = new Gauge({
      name: "svc_operator_workqueue_depth",
      help: "Keys waiting in the work queue",
      registers,
    });
    this.retries = new Counter({
      name: "svc_operator_workqueue_retries_total",
      help: "Keys re-queued with backoff after a failure",
      labelNames: ["kind"],
      registers,
    });
    this.apiCalls = new Counter({
      name: "svc_operator_api_calls_total",
      help: "Service API calls by method, route template and status (0: no answer)",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.apiDuration = new Histogram({
      name: "svc_operator_api_call_duration_seconds",
      help: "Service API call latency by method and route template",
      labelNames: ["method", "route"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.resourcesByCondition = new Gauge({
      name: "svc_operator_resources",
      help: "Custom resources by kind, condition and condition status",
      labelNames: ["kind", "condition", "status"],
      registers,
    });
    this.resourceCondition = new Gauge({
      name: "svc_operator_resource_condition",
      help: "1 when the resource's condition is True, 0 when False, -1 when Unknown (one series per resource and condition)",
      labelNames: ["kind", "namespace", "name", "condition", "reason"],
      registers,
    });
    this.resyncCalls = new Counter({
      name: "svc_operator_resync_api_calls_total",
      help: "Index calls made by drift detection",
      labelNames: ["kind"],
      registers,
    });
    this.leader = new Gauge({
      name: "svc_operator_leader",
      help: "1 while this instance is the leader",
      registers,
    });
  }

  reconciled(kind: string, result: string, seconds: number): void {
    this.reconcileTotal.inc({ kind, result });
    this.reconcileDuration.observe({ kind }, seconds);
  }

  apiCall(event: { method: string; route: string; status: number; durationMs: number }): void {
    this.apiCalls.inc({ method: event.method, route: event.route, status: String(event.status) });
    this.apiDuration.observe({ method: event.method, route: event.route }, event.durationMs / 1000);
  }

  /** Replaces the per-resource condition series of one object (reasons change, so old series go). */
  setConditions(
    kind: string,
    namespace: string,
    name: string,
    conditions: readonly Condition[] | undefined,
  ): void {
    this.forget(kind, namespace, name);
    const series: Record<string, string>[] = [];
    for (const c of conditions ?? []) {
      const value = c.status === "True" ? 1 : c.status === "False" ? 0 : -1;
      const labels = { kind, namespace, name, condition: c.type, reason: c.reason };
      this.resourceCondition.set(labels, value);
      series.push(labels);
    }
    if (series.length > 0) this.conditionSeries.set(`${kind}/${namespace}/${name}`, series);
  }

  forget(kind: string, namespace: string, name: string): void {
    const key = `${kind}/${namespace}/${name}`;
    for (const labels of this.conditionSeries.get(key) ?? []) this.resourceCondition.remove(labels);
    this.conditionSeries.delete(key);
  }

  /** Recounts the per-kind gauge from the cache (called on a timer, cheap). */
  countConditions(
    kind: string,
    objects: readonly { status?: { conditions?: readonly Condition[] } }[],
  ): void {
    const counts = new Map<string, number>();
    for (const type of ["Ready", "Synced", "Reconciling", "Stalled"]) {
      for (const s of ["True", "False", "Unknown"]) counts.set(`${type}/${s}`, 0);
    }
    for (const o of objects) {
      for (const c of o.status?.conditions ?? [])
        counts.set(`${c.type}/${c.status}`, (counts.get(`${c.type}/${c.status}`) ?? 0) + 1);
    }
    for (const [k, n] of counts) {
      const [condition = "", status = ""] = k.split("/");
      this.resourcesByCondition.set({ kind, condition, status }, n);
    }
  }
}

/** /metrics, /healthz and /readyz. `ready()` decides readiness (caches synced). */
export function startHealthServer(options: {
  registry: Registry;
  host: string;
  port: number;
  ready: () => boolean;
  healthy?: () => boolean;
}): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/metrics") {
      options.registry.metrics().then(
        (body) => {
          res.writeHead(200, { "content-type": options.registry.contentType });
          res.end(body);
        },
        (error: unknown) => {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(String(error));
        },
      );
      return;
    }
    if (path === "/healthz" || path === "/readyz") {
      const ok = path === "/healthz" ? (options.healthy?.() ?? true) : options.ready();
      res.writeHead(ok ? 200 : 503, { "content-type": "text/plain" });
      res.end(ok ? "ok\n" : "not ready\n");
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found\n");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}
