import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryMetrics, OperatorMetrics, operatorRegistry } from "../../src/runtime/telemetry/index.ts";
import { familyOf, groupingLabels, metricRefs } from "../deploy/promql.ts";
import { render } from "../deploy/render.ts";
import { lintMetrics } from "../support/promlint.testing.ts";
import { createCr, namespaceWithAccount, type Stack, startStack, waitForCondition } from "./harness.ts";

/**
 * The shipped Grafana dashboard against a running `svc-operator run` (the command as it ships,
 * process metrics included): every metric any panel's query names must be on its /metrics, so a
 * renamed metric fails here rather than in the user's Grafana.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "src", "cli.ts");

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
  datasource?: { uid: string };
}

const manifests = render(join(ROOT, "deploy"));
const configMap = manifests.find(
  (m) => m.kind === "ConfigMap" && m.metadata.name === "svc-operator-dashboard",
) as unknown as { metadata: { labels: Record<string, string> }; data: Record<string, string> } | undefined;
const dashboard = JSON.parse(configMap?.data["svc-operator.json"] ?? "{}") as {
  panels?: Panel[];
  templating: { list: { name: string; query?: string }[] };
};
const panels = (dashboard.panels ?? []).filter((p) => p.type !== "row");
const queries = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

let stack: Stack;
let dir: string;
let child: ChildProcess | undefined;
/** Each family on the operator's /metrics: its type and the label names its series carry. */
const exported = new Map<string, { type: string; labels: Set<string> }>();
/** The whole /metrics page, once something was reconciled. */
let page = "";

beforeAll(async () => {
  stack = await startStack();
  dir = await mkdtemp(join(tmpdir(), "svc-operator-dashboard-"));
  const kubeconfig = join(dir, "kubeconfig");
  await writeFile(kubeconfig, stack.cluster.kubeconfig, { mode: 0o600 });
  // Something reconciled and called the service for, so the labelled families have series.
  const ns = await namespaceWithAccount(stack);
  await createCr(stack, ns, "Deployment", "web", { description: "dashboard" });
  const lines: string[] = [];
  child = spawn(
    process.execPath,
    [CLI, "run", "--kubeconfig", kubeconfig, "--metrics-address", "127.0.0.1:0"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  createInterface({ input: child.stdout! }).on("line", (l) => lines.push(l));
  createInterface({ input: child.stderr! }).on("line", (l) => lines.push(l));
  let url: string | undefined;
  for (const deadline = Date.now() + 20_000; !url && Date.now() < deadline; ) {
    url = lines.map((l) => /"metrics":"([^"]+)"/.exec(l)?.[1]).find(Boolean);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!url) throw new Error(`the operator did not start: ${lines.join("\n")}`);
  await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
  const text = await (await fetch(url)).text();
  page = text;
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm))
    exported.set(name!, { type: type!, labels: new Set() });
  // A family with no series yet (no retries happened) has the labels it is declared with.
  const declared = operatorRegistry({});
  new OperatorMetrics(declared);
  new MemoryMetrics(declared, () => ({}));
  for (const m of declared.getMetricsAsArray())
    for (const label of (m as unknown as { labelNames?: string[] }).labelNames ?? [])
      exported.get(m.name)?.labels.add(label);
  for (const [, series, labels] of text.matchAll(/^([a-zA-Z_:][\w:]*)\{([^}]*)\}/gm)) {
    const family = exported.get(familyOf(series!, new Set(exported.keys())) ?? "");
    for (const [, label] of labels!.matchAll(/([a-zA-Z_]\w*)="/g)) family?.labels.add(label!);
  }
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the Grafana dashboard (deploy/monitoring/dashboard.yaml)", () => {
  it("is a ConfigMap of the deploy/ base with the label kube-prometheus-stack's sidecar loads", () => {
    expect(configMap, "ConfigMap svc-operator-dashboard in deploy/").toBeDefined();
    expect(configMap!.metadata.labels.grafana_dashboard).toBe("1");
    expect(panels.length).toBeGreaterThan(10);
    // Panels query the data source the user picks.
    expect(dashboard.templating.list.map((v) => v.name)).toContain("datasource");
    // Its series carry the job the ServiceMonitor gives them: the metrics Service's name.
    const service = manifests.find((m) => m.kind === "Service")!;
    expect(dashboard.templating.list.find((v) => v.name === "job")?.query).toBe(service.metadata.name);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template
    for (const p of panels) expect(p.datasource?.uid, p.title).toBe("${datasource}");
  });

  it("every metric a panel queries is exported by the running operator, with the labels it uses", () => {
    expect(exported.has("process_resident_memory_bytes"), "process metrics on /metrics").toBe(true);
    expect(queries.length).toBeGreaterThan(10);
    const families = new Set(exported.keys());
    // The labels Prometheus adds to what it scrapes (the ServiceMonitor's job, the pod) and `le`.
    const added = new Set(["job", "pod", "namespace", "instance", "le"]);
    for (const { panel, expr } of queries) {
      const refs = metricRefs(expr);
      expect(refs.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const { name, labels } of refs) {
        const family = familyOf(name, families);
        expect(family, `${panel}: ${name} is not on the operator's /metrics`).toBeDefined();
        if (family !== name)
          expect(exported.get(family!)!.type, `${panel}: ${name}`).toMatch(/histogram|summary/);
        for (const label of labels)
          expect(
            added.has(label) || exported.get(family!)!.labels.has(label),
            `${panel}: ${name}{${label}}`,
          ).toBe(true);
      }
      for (const label of groupingLabels(expr))
        expect(
          added.has(label) || refs.some((r) => exported.get(familyOf(r.name, families)!)?.labels.has(label)),
          `${panel}: by ${label}`,
        ).toBe(true);
    }
  });

  it("shows what issue 23 asks for: resources, reconciles, API calls and the limiter, the queue, the leader, the process", () => {
    const used = new Set(queries.flatMap((q) => metricRefs(q.expr).map((r) => r.name)));
    for (const name of [
      "svc_operator_resources",
      "svc_operator_reconcile_total",
      "svc_operator_reconcile_duration_seconds_bucket",
      "svc_operator_api_calls_total",
      "svc_operator_api_call_duration_seconds_bucket",
      "svc_operator_api_rate_limit_wait_seconds_bucket",
      "svc_operator_workqueue_depth",
      "svc_operator_workqueue_retries_total",
      "svc_operator_leader",
      "process_resident_memory_bytes",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_p99_seconds",
    ])
      expect(used, name).toContain(name);
  });
});

describe("the operator's /metrics, as it ships", () => {
  it("passes `promtool check metrics` (Prometheus's lint; its rules where promtool is not installed)", () => {
    const { by, problems } = lintMetrics(page);
    expect(problems, `found by ${by}`).toEqual([]);
  });
});
