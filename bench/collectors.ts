// Issue 23 item 1: what prom-client's default collectors (process_*, nodejs_*) cost the operator.
// The operator runs as it ships (the bundle of scripts/build.ts, the image's node flags and env) as
// a child process against a devcluster and simulator in this process, with the collectors ("on")
// and without them ("off": SVC_OPERATOR_BENCH_PROCESS_METRICS=off, the same build). Each run is
// measured once it is settled: its RSS (VmRSS) and peak RSS (VmHWM), and its CPU time over a
// window of BENCH_COLLECTORS_WINDOW_MS (default 30 s) in which /metrics is scraped every 5 s as
// Prometheus would (the collectors do most of their work when scraped), as millicores.
//   idle: only the Account.
//   n5000: BENCH_COLLECTORS_RESOURCES (default 5,000) Deployments, created and worked to Ready by
//   an unmeasured run first; each measured run then starts over the Ready set and is measured once
//   its start-up reconciles are done (the queue empty), so both sides hold the same cache.
// The two sides alternate (off, on, off, on: BENCH_COLLECTORS_REPEATS=2) and the median is kept,
// since the machine's other load moves CPU figures more than the collectors do.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildBundle } from "../scripts/build.ts";
import { PROCESS_METRICS_BENCH_ENV } from "../src/runtime/telemetry/index.ts";
import type { Manifest } from "../test/proof/mixed.ts";
import {
  accountNamespace,
  applyManifest,
  OperatorProcess,
  pool,
  type Rig,
  startRig,
  until,
} from "../test/proof/rig.ts";
import { imageRuntime } from "./lib/node-options.ts";

const RESOURCES = Number(process.env.BENCH_COLLECTORS_RESOURCES ?? 5_000);
const WINDOW_MS = Number(process.env.BENCH_COLLECTORS_WINDOW_MS ?? 30_000);
const REPEATS = Number(process.env.BENCH_COLLECTORS_REPEATS ?? 2);
const SCRAPE_EVERY_MS = 5_000;
const NS = "collectors";
type Side = "on" | "off";

interface Reading {
  rssMb: number;
  peakRssMb: number;
  cpuMillicores: number;
}

/** The operator of one side, started and settled: `settled` says when its start-up work is done. */
async function measure(
  start: (side: Side) => OperatorProcess,
  side: Side,
  settled: (op: OperatorProcess) => Promise<boolean>,
): Promise<Reading> {
  const op = start(side);
  try {
    await op.start();
    await until(`the operator (collectors ${side}) settled`, () => settled(op), 600_000, 1_000);
    await new Promise((r) => setTimeout(r, 3_000));
    const exported = await fetch(`http://127.0.0.1:${op.metricsPort}/metrics`).then((r) => r.text());
    if (exported.includes("process_resident_memory_bytes") !== (side === "on"))
      throw new Error(`collectors ${side}, but /metrics says otherwise`);
    const cpu0 = await op.cpuMs();
    const t0 = performance.now();
    const ends = t0 + WINDOW_MS;
    while (performance.now() < ends) {
      await fetch(`http://127.0.0.1:${op.metricsPort}/metrics`).then((r) => r.arrayBuffer());
      await new Promise((r) =>
        setTimeout(r, Math.min(SCRAPE_EVERY_MS, Math.max(0, ends - performance.now()))),
      );
    }
    const cpuMillicores = Math.round(((await op.cpuMs()) - cpu0) / ((performance.now() - t0) / 1000));
    return { rssMb: await op.rssMb(), peakRssMb: await op.peakRssMb(), cpuMillicores };
  } finally {
    await op.kill("SIGTERM");
  }
}

/** Both sides, alternating, REPEATS times each; the median of each figure per side. */
async function compare(
  start: (side: Side) => OperatorProcess,
  settled: (op: OperatorProcess) => Promise<boolean>,
): Promise<Record<string, number>> {
  const runs: Record<Side, Reading[]> = { on: [], off: [] };
  for (let i = 0; i < REPEATS; i++)
    for (const side of ["off", "on"] as const) runs[side].push(await measure(start, side, settled));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const out: Record<string, number> = {};
  for (const side of ["off", "on"] as const)
    for (const key of ["rssMb", "peakRssMb", "cpuMillicores"] as const)
      out[`${key}.${side}`] = median(runs[side].map((r) => r[key]));
  out.rssCostMb = out["rssMb.on"]! - out["rssMb.off"]!;
  out.cpuCostMillicores = out["cpuMillicores.on"]! - out["cpuMillicores.off"]!;
  return out;
}

/** The operator's work queue empty, having reconciled at least `reconciles` Deployments. */
function queueDone(reconciles: number) {
  return async (op: OperatorProcess) =>
    (await op.metric("svc_operator_workqueue_depth")) === 0 &&
    (await op.metric("svc_operator_reconcile_total", 'kind="Deployment"')) >= reconciles &&
    (await op.metric("svc_operator_resources", 'condition="Ready",status="True"', 'kind="Account"')) >=
      reconciles;
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), "bench-collectors-"));
  const dist = join(dir, "dist");
  await buildBundle(dist);
  const image = await imageRuntime();
  let rig: Rig | undefined;
  try {
    rig = await startRig({ dir });
    const r = rig;
    await accountNamespace(r, NS);
    const start = (side: Side) =>
      new OperatorProcess(
        r,
        { concurrency: "16", "api-rate": "10000", "log-level": "warn" },
        join(dist, "cli.js"),
        { ...image.env, [PROCESS_METRICS_BENCH_ENV]: side },
        image.nodeArgs,
      );
    const figures: Record<string, unknown> = { windowMs: WINDOW_MS, repeats: REPEATS };
    const idle = await compare(
      start,
      async (op) =>
        (await op.metric("svc_operator_resources", 'kind="Account",condition="Ready",status="True"')) === 1 &&
        (await op.metric("svc_operator_workqueue_depth")) === 0,
    );
    for (const [k, v] of Object.entries(idle)) figures[`idle.${k}`] = v;

    const set: Manifest[] = Array.from({ length: RESOURCES }, (_, i) => ({
      kind: "Deployment",
      name: `c${i}`,
      spec: { description: "collectors" },
    }));
    await pool(set, 32, (m) => applyManifest(r, NS, m));
    // Worked to Ready once, unmeasured: the measured runs then only observe the set.
    const converge = performance.now();
    await measureless(start("off"), queueDone(RESOURCES));
    figures.convergeMs = Math.round(performance.now() - converge);
    const loaded = await compare(start, queueDone(RESOURCES));
    for (const [k, v] of Object.entries(loaded)) figures[`n${RESOURCES}.${k}`] = v;
    console.log(figures);
    return figures;
  } finally {
    await rig?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function measureless(op: OperatorProcess, settled: (op: OperatorProcess) => Promise<boolean>) {
  try {
    await op.start();
    await until("the set Ready", () => settled(op), 600_000, 1_000);
  } finally {
    await op.kill("SIGTERM");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
