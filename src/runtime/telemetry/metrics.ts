import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { createSafeServer, requestTarget } from "../../lib/http/index.ts";
import type { Condition } from "../sdk/index.ts";
import { CONDITION_STATUSES, ConditionTally } from "./condition-tally.ts";

/** The custom resources of one kind as the informer cache holds them. */
export interface KindObjects {
  kind: string;
  objects: readonly {
    metadata: { namespace?: string; name: string };
    status?: { conditions?: readonly Condition[] };
  }[];
}

/** The per-resource family, rendered by resourceConditionLines (not a prom-client metric). */
export const RESOURCE_CONDITION = {
  name: "svc_operator_resource_condition",
  help: "1 when the resource's condition is True, 0 when False, -1 when Unknown (one series per resource and condition)",
  labelNames: ["kind", "namespace", "name", "condition", "reason"],
} as const;

/** A label value in the Prometheus text format. */
const labelValue = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

/**
 * `svc_operator_resource_condition{kind,namespace,name,condition,reason}`, rendered at scrape time
 * from the objects' conditions in the informer cache, in chunks of about `chunkChars`. Nothing is
 * kept per resource: as a prom-client Gauge each series held ~1 KB (label object, hash key, the
 * list of series to remove) and each scrape formatted ~2 KB of garbage per series, 80 MB per
 * scrape at 10,000 resources (four conditions each).
 */
export function* resourceConditionLines(
  kinds: Iterable<KindObjects>,
  chunkChars = 64 * 1024,
): Generator<string> {
  const { name, help } = RESOURCE_CONDITION;
  let chunk = `# HELP ${name} ${help}\n# TYPE ${name} gauge\n`;
  for (const { kind, objects } of kinds) {
    const k = labelValue(kind);
    for (const o of objects) {
      const conditions = o.status?.conditions;
      if (!conditions?.length) continue;
      const resource = `${name}{kind="${k}",namespace="${labelValue(o.metadata.namespace ?? "")}",name="${labelValue(o.metadata.name)}",condition="`;
      for (const c of conditions) {
        const value = c.status === "True" ? 1 : c.status === "False" ? 0 : -1;
        chunk += `${resource}${labelValue(c.type)}",reason="${labelValue(c.reason ?? "")}"} ${value}\n`;
      }
      if (chunk.length >= chunkChars) {
        yield chunk;
        chunk = "";
      }
    }
  }
  if (chunk) yield chunk;
}

/** The operator's prom-client metrics, on an injected registry (no global default registry). */
export class OperatorMetrics {
  readonly reconcileTotal: Counter<"kind" | "result">;
  readonly reconcileDuration: Histogram<"kind">;
  readonly queueDepth: Gauge;
  readonly retries: Counter<"kind">;
  readonly apiCalls: Counter<"method" | "route" | "status">;
  readonly apiDuration: Histogram<"method" | "route">;
  readonly rateLimitWait: Histogram;
  readonly resourcesByCondition: Gauge<"kind" | "condition" | "status">;
  /** What svc_operator_resources reads: the informer caches' conditions, kept as they change. */
  readonly conditions = new ConditionTally();
  /** Exported too, rendered from the informer cache at scrape time (resourceConditionLines). */
  readonly resourceCondition = RESOURCE_CONDITION;
  readonly resyncCalls: Counter<"kind">;
  readonly auditErrors: Counter<"kind" | "reason">;
  readonly leader: Gauge;
  readonly informerErrors: Counter<"kind" | "reason">;

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
    this.rateLimitWait = new Histogram({
      name: "svc_operator_api_rate_limit_wait_seconds",
      help: "How long each service API exchange waited for its Account's rate limiter (--api-rate) before it was sent; 0 when it went at once",
      // From none (most calls) to the minutes a backlog of thousands waits at 20 calls a second.
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.resourcesByCondition = new Gauge({
      name: "svc_operator_resources",
      help: "Custom resources by kind, condition and condition status",
      labelNames: ["kind", "condition", "status"],
      registers,
      // Read when scraped from the tally the informer caches keep: a few rows per kind.
      collect: () => {
        for (const [kind, rows] of this.conditions.kinds())
          for (const [condition, row] of rows)
            for (let i = 0; i < CONDITION_STATUSES.length; i++)
              this.resourcesByCondition.set({ kind, condition, status: CONDITION_STATUSES[i] }, row[i]!);
      },
    });
    this.resyncCalls = new Counter({
      name: "svc_operator_resync_api_calls_total",
      help: "Index calls made by drift detection",
      labelNames: ["kind"],
      registers,
    });
    this.auditErrors = new Counter({
      name: "svc_operator_audit_errors_total",
      help: "Audit trail calls that failed or were not made, by kind and reason (the service client's error kind, queueFull, shutdown, statusWrite, other); the reconcile is not affected",
      labelNames: ["kind", "reason"],
      registers,
    });
    this.leader = new Gauge({
      name: "svc_operator_leader",
      help: "1 while this instance is the leader",
      registers,
    });
    this.informerErrors = new Counter({
      name: "svc_operator_informer_errors_total",
      help: "Informer list and watch failures by kind and reason (forbidden, unauthorized, notFound, unreachable, tls, timeout, throttled, serverError, other)",
      labelNames: ["kind", "reason"],
      registers,
    });
  }

  reconciled(kind: string, result: string, seconds: number): void {
    this.reconcileTotal.inc({ kind, result });
    this.reconcileDuration.observe({ kind }, seconds);
  }

  apiCall(event: {
    method: string;
    route: string;
    status: number;
    durationMs: number;
    rateLimitWaitMs?: number;
  }): void {
    this.apiCalls.inc({ method: event.method, route: event.route, status: String(event.status) });
    this.apiDuration.observe({ method: event.method, route: event.route }, event.durationMs / 1000);
    if (event.rateLimitWaitMs !== undefined) this.rateLimitWait.observe(event.rateLimitWaitMs / 1000);
  }

  auditError(kind: string, reason: string): void {
    this.auditErrors.inc({ kind, reason });
  }
}

/** Resolves when the response can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

const pathOf = (req: IncomingMessage) => req.url?.split("?")[0]?.slice(0, 200);

/** What the server logs failures to (a pino logger fits). */
interface FailureLog {
  error(fields: { err: unknown; method?: string; path?: string }, message: string): void;
}

function failureLogger(log: FailureLog) {
  return (error: unknown, req: IncomingMessage) =>
    log.error({ err: error, method: req.method, path: pathOf(req) }, "metrics request failed");
}

function logToStderr(error: unknown, req: IncomingMessage): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`metrics server: ${req.method} ${pathOf(req)} failed: ${message}\n`);
}

/**
 * /metrics, /healthz and /readyz. `ready()` decides readiness (caches synced). `extra()` yields
 * more exposition text after the registry's (the families `extraNames`, rendered outside
 * prom-client), written chunk by chunk as the connection takes it. `/metrics?name[]=X&name[]=Y`
 * renders only those families (as the Prometheus Go client's handler does), so a tool polling one
 * gauge does not make the operator render a series per resource each time.
 */
export function startHealthServer(options: {
  registry: Registry;
  host: string;
  port: number;
  ready: () => boolean;
  /** Why it is not ready, one line each (the /readyz body when it fails). */
  notReady?: () => string[];
  healthy?: () => boolean;
  extra?: () => Iterable<string>;
  extraNames?: readonly string[];
  /** Gets one line per request that failed inside the server (it answered 500); stderr by default. */
  log?: FailureLog;
}): Promise<Server> {
  const metrics = async (res: ServerResponse, only: string[]) => {
    if (only.length > 0) {
      const known = only.filter((n) => options.registry.getSingleMetric(n) !== undefined);
      const parts = await Promise.all(known.map((n) => options.registry.getSingleMetricAsString(n)));
      res.writeHead(200, { "content-type": options.registry.contentType });
      res.write(parts.map((p) => `${p}\n`).join(""));
      if (only.some((n) => options.extraNames?.includes(n))) {
        for (const chunk of options.extra?.() ?? []) {
          if (res.destroyed) return;
          if (!res.write(chunk)) await drained(res);
        }
      }
      res.end();
      return;
    }
    let body = await options.registry.metrics();
    // OpenMetrics ends with `# EOF`: the extra families go before it.
    const eof = body.endsWith("# EOF\n") ? "# EOF\n" : "";
    if (eof) body = body.slice(0, -eof.length);
    res.writeHead(200, { "content-type": options.registry.contentType });
    res.write(body);
    for (const chunk of options.extra?.() ?? []) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await drained(res);
    }
    res.end(eof);
  };
  const text = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "content-type": "text/plain" });
    res.end(body);
  };
  const server = createSafeServer(
    async (req, res) => {
      if (req.method !== "GET" && req.method !== "HEAD") {
        // Scrapers and probes only read: a body is never wanted, so none is drained either.
        res.setHeader("allow", "GET, HEAD");
        res.setHeader("connection", "close");
        return text(res, 405, `method not allowed: ${req.method} (use GET or HEAD)\n`);
      }
      const url = requestTarget(req.url);
      if (!url) return text(res, 400, "bad request: the request target is not a URL path\n");
      const path = url.pathname;
      if (path === "/metrics") return metrics(res, url.searchParams.getAll("name[]"));
      if (path === "/healthz" || path === "/readyz") {
        const ok = path === "/healthz" ? (options.healthy?.() ?? true) : options.ready();
        if (ok) return text(res, 200, "ok\n");
        const why = path === "/readyz" ? (options.notReady?.() ?? []) : [];
        return text(res, 503, `not ready\n${why.map((w) => `${w}\n`).join("")}`);
      }
      text(res, 404, "not found\n");
    },
    { onError: options.log ? failureLogger(options.log) : logToStderr },
  );
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}
