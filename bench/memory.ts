import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as k8s from "@kubernetes/client-node";
import { parse } from "yaml";
import { buildBundle } from "../scripts/build.ts";
import { RawKube } from "../src/runtime/client/index.ts";
import type { ManagedObject } from "../src/runtime/sdk/index.ts";
import { GROUP, VERSION } from "../src/runtime/sdk/index.ts";
import { type Manifest, mixedSet, PLURAL, SCRIPTS_CONFIG_MAP } from "../test/proof/mixed.ts";
import { queuedTaskBytes } from "./lib/audit-queue-bytes.ts";
import { growth, type HeapSummary, top } from "./lib/heap-summary.ts";
import { median, medianRunBy } from "./lib/median-run.ts";
import { CONCURRENCY, MemoryOperator as Operator, type OperatorRuns } from "./lib/memory-operator.ts";
import { imageRuntime } from "./lib/node-options.ts";
import { type Infra, pool, ready, startInfra, stopInfra } from "./lib/operator-rig.ts";

const ROOT = join(import.meta.dirname, "..");
const SIZES = (process.env.BENCH_MEMORY_SIZES ?? "10000").split(",").filter(Boolean).map(Number);
const SET = process.env.BENCH_MEMORY_SET ?? "mixed";
const IDLE_RUNS = Number(process.env.BENCH_MEMORY_IDLE_RUNS ?? 3);
/**
 * Fresh processes converging each size: the peak moves by ±10 MB between runs (where V8's
 * collections fall), so the figures are the median run's, with every run's peak beside them.
 */
const PEAK_RUNS = Number(process.env.BENCH_MEMORY_PEAK_RUNS ?? 3);
/** How long after the Account is Ready the idle RSS is read (start-up's garbage collected by then). */
const IDLE_SETTLE_MS = 3000;

/** BENCH_MEMORY_TRACE=1: print the operator's memory every second while it converges. */
const TRACE = process.env.BENCH_MEMORY_TRACE === "1";
const MB = 1024 * 1024;

function manifests(size: number): Manifest[] {
  if (SET === "deployment")
    return Array.from({ length: size }, (_, i) => ({
      kind: "Deployment",
      name: `d${i}`,
      spec: { description: "memory" },
    }));
  return mixedSet(size, "m");
}

interface Runs extends OperatorRuns {
  keepSnapshots: string | undefined;
}

/** A fresh devcluster and simulator with the CRDs, a namespace, its credentials and a Ready-able Account. */
async function cluster(dir: string) {
  const infra: Infra = await startInfra(0);
  const kubeconfig = join(dir, "kubeconfig");
  await writeFile(kubeconfig, infra.kubeconfig, { mode: 0o600 });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(infra.kubeconfig);
  const raw = new RawKube(kc);
  const ns = "memory";
  const collection = (kind: string) =>
    `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL[kind] ?? "accounts"}`;
  const create = (kind: string, name: string, spec: Record<string, unknown>) =>
    raw.call("POST", collection(kind), { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec });
  /** Resources of the kinds whose Ready condition is True for their generation (read from the devcluster). */
  const readyIn = async (kinds: string[]) => {
    let n = 0;
    for (const kind of kinds) {
      const list = await raw.call<{ items: ManagedObject[] }>("GET", collection(kind));
      n += list.items.filter(
        (o) => ready(o) && o.status?.observedGeneration === o.metadata.generation,
      ).length;
    }
    return n;
  };
  const close = async () => {
    await raw.close();
    await stopInfra(infra);
  };
  try {
    const crds = join(ROOT, "crds");
    for (const file of (await readdir(crds)).filter((f) => f.endsWith(".yaml")))
      await raw.call(
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        parse(await readFile(join(crds, file), "utf8")),
      );
    await raw.call("POST", "/api/v1/namespaces", { metadata: { name: ns } });
    await raw.call("POST", `/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "creds" },
      stringData: { refreshToken: "dev-refresh-token" },
    });
    await raw.call("POST", `/api/v1/namespaces/${ns}/configmaps`, SCRIPTS_CONFIG_MAP);
    await create("Account", "default", {
      endpoint: infra.simUrl,
      accountId: 1,
      oauth: { refreshTokenSecretRef: { name: "creds", key: "refreshToken" } },
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { kubeconfig, create, readyIn, close };
}

async function waitFor(op: Operator, what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (!op.running) throw new Error(`the operator exited while waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The operator with only the Account, started `IDLE_RUNS` times: the RSS of each start, and the
 * live heap of the last one by constructor.
 */
async function idle(runs: Runs): Promise<{ rssMb: number; figures: Record<string, unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), "bench-memory-"));
  const c = await cluster(dir);
  const op = new Operator(c.kubeconfig, dir, runs);
  try {
    const rss: number[] = [];
    let heap: HeapSummary | undefined;
    let mappings: Record<string, number> = {};
    let usage: Record<string, number> = {};
    for (let i = 0; i < IDLE_RUNS; i++) {
      await op.start();
      await waitFor(op, "the Account Ready", async () => (await c.readyIn(["Account"])) === 1, 30_000);
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
      rss.push((await op.rss()).rssMb);
      if (i === IDLE_RUNS - 1) mappings = await op.rssByMapping();
      if (i === IDLE_RUNS - 1) usage = (await op.memory()).now;
      if (i === IDLE_RUNS - 1) heap = await op.liveHeap(runs.keepSnapshots, `idle-${SET}`);
      await op.stop();
    }
    const rssMb = median(rss);
    return {
      rssMb,
      figures: {
        operatorRssIdleMb: rssMb,
        operatorRssIdleRunsMb: rss,
        idleRssByMappingMb: mappings,
        idleMemoryUsageMb: usage,
        idleLiveHeapMb: heap!.mb,
        idleLiveHeapByConstructorMb: top(heap!),
        idleLiveHeapByOwnerMb: top(heap!, 12, "byOwner"),
      },
    };
  } finally {
    await op.stop();
    await c.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** One size: applied with the operator stopped, then a fresh operator works all of it to Ready. */
async function peak(size: number, idleRssMb: number, runs: Runs): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), "bench-memory-"));
  const c = await cluster(dir);
  const op = new Operator(c.kubeconfig, dir, runs);
  try {
    // The live heap with the Account only, in this process's cluster, for the growth per resource.
    await op.start();
    await waitFor(op, "the Account Ready", async () => (await c.readyIn(["Account"])) === 1, 30_000);
    const idleHeap = await op.liveHeap(undefined, `idle-${SET}`);
    await op.stop();

    const set = manifests(size);
    await pool([...set].reverse(), 32, (m) => c.create(m.kind, m.name, m.spec));
    const started = performance.now();
    await op.start();
    // Prometheus scrapes while it converges (every 5 s; the scrape is part of the peak).
    let scrapeBytes = 0;
    const scraper = setInterval(() => {
      op.scrape().then(
        (n) => {
          scrapeBytes = n;
        },
        () => {},
      );
    }, 5_000);
    const kinds = [...new Set(set.map((m) => m.kind))];
    const tracer = TRACE
      ? setInterval(() => {
          op.memory().then(
            (m) =>
              console.log(
                `${Math.round(performance.now() - started)} ms: rss ${m.now.rss} heapTotal ${m.now.heapTotal} heapUsed ${m.now.heapUsed} external ${m.now.external}`,
              ),
            () => {},
          );
        }, 1000)
      : undefined;
    // BENCH_MEMORY_SNAPSHOT_DURING_MS: a heap snapshot that long after the start, while it converges.
    const during = process.env.BENCH_MEMORY_SNAPSHOT_DURING_MS
      ? setTimeout(
          () =>
            void op.liveHeap(runs.keepSnapshots, `${SET}-${size}-during`).then(
              (h) => console.log(`live heap while converging: ${h.mb} MB`, top(h)),
              () => {},
            ),
          Number(process.env.BENCH_MEMORY_SNAPSHOT_DURING_MS),
        )
      : undefined;
    try {
      await waitFor(
        op,
        `${set.length} resources Ready`,
        async () => (await c.readyIn(kinds)) >= set.length,
        600_000,
      );
    } finally {
      clearInterval(scraper);
      clearInterval(tracer);
      clearTimeout(during);
    }
    const convergeMs = Math.round(performance.now() - started);
    const highest = await op.rss();
    const cpuMs = await op.cpuMs();
    const usage = await op.memory();
    // Let the last status writes and events finish before measuring what stays.
    await new Promise((r) => setTimeout(r, 2000));
    // RSS as it stays (read before the snapshot, whose writing grows the process by itself).
    const settled = await op.rss();
    const settledByMapping = await op.rssByMapping();
    const liveHeap = await op.liveHeap(runs.keepSnapshots, `${SET}-${size}`);
    const usageAfterGc = await op.memory();
    const per = (mb: number) => Math.round((mb * MB) / set.length);
    return {
      resources: set.length,
      convergeMs,
      // Start-up included: compare between runs (node flags), not with the other benches' per-reconcile CPU.
      operatorCpuMs: cpuMs,
      operatorPeakRssMb: highest.peakRssMb,
      rssSettledMb: settled.rssMb,
      rssSettledByMappingMb: settledByMapping,
      liveHeapAfterMb: liveHeap.mb,
      scrapeBytes,
      peakRssOverIdleBytesPerResource: per(highest.peakRssMb - idleRssMb),
      liveHeapBytesPerResource: per(liveHeap.mb - idleHeap.mb),
      liveHeapGrowthByTypeBytesPerResource: growth(idleHeap, liveHeap, set.length),
      liveHeapGrowthByOwnerBytesPerResource: growth(idleHeap, liveHeap, set.length, 10, "byOwner"),
      peakUsageMb: usage.peak,
      usageAfterGcMb: usageAfterGc.now,
    };
  } finally {
    await op.stop();
    await c.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** `PEAK_RUNS` runs of one size (peak): the figures of the run with the median peak, and each run's peak. */
async function medianPeak(size: number, idleRssMb: number, runs: Runs): Promise<Record<string, unknown>> {
  const all: Record<string, unknown>[] = [];
  for (let i = 0; i < PEAK_RUNS; i++) {
    all.push(await peak(size, idleRssMb, runs));
    console.log({ size, run: i + 1, operatorPeakRssMb: all.at(-1)!.operatorPeakRssMb });
  }
  const peakOf = (f: Record<string, unknown>) => Number(f.operatorPeakRssMb);
  return { ...medianRunBy(all, peakOf), operatorPeakRssRunsMb: all.map(peakOf) };
}

/** The CLI to run: BENCH_MEMORY_ENTRY, or the bundle built into `dir` (what the image runs). */
async function entry(dir: string): Promise<string> {
  if (process.env.BENCH_MEMORY_ENTRY) return resolve(ROOT, process.env.BENCH_MEMORY_ENTRY);
  await buildBundle(join(dir, "dist"));
  return join(dir, "dist", "cli.js");
}

export async function run(): Promise<Record<string, unknown>> {
  const build = await mkdtemp(join(tmpdir(), "bench-memory-build-"));
  try {
    const image = await imageRuntime();
    const env = { ...image.env };
    if (process.env.BENCH_MEMORY_NODE_OPTIONS !== undefined)
      env.NODE_OPTIONS = process.env.BENCH_MEMORY_NODE_OPTIONS;
    const runs: Runs = {
      entry: await entry(build),
      nodeArgs: process.env.BENCH_MEMORY_NODE_ARGS?.split(" ").filter(Boolean) ?? image.nodeArgs,
      env,
      keepSnapshots: process.env.BENCH_MEMORY_SNAPSHOT,
    };
    const figures: Record<string, unknown> = {
      loadAverage1m: +loadavg()[0]!.toFixed(1),
      set: SET,
      entry: process.env.BENCH_MEMORY_ENTRY ?? "the bundle (npm run build)",
      nodeArgs: runs.nodeArgs.join(" "),
      env: runs.env,
      concurrency: CONCURRENCY,
      goals: "idle <= 80 MB RSS with one Account; peak <= 150 MB RSS at 10,000 resources",
    };
    // In this process: what one queued audit task holds (a converge's backlog is part of the peak).
    figures.auditQueuedTaskBytes = queuedTaskBytes(50_000);
    const still = await idle(runs);
    Object.assign(figures, still.figures);
    console.log(figures);
    const results = new Map<number, Record<string, unknown>>();
    for (const size of SIZES) {
      const f = await medianPeak(size, still.rssMb, runs);
      results.set(size, f);
      for (const [k, v] of Object.entries(f)) figures[`n${size}.${k}`] = v;
      console.log({ size, ...f });
    }
    if (SIZES.length >= 2) {
      const a = results.get(Math.min(...SIZES))!;
      const b = results.get(Math.max(...SIZES))!;
      const n = Number(b.resources) - Number(a.resources);
      const marginal = (field: string) => Math.round(((Number(b[field]) - Number(a[field])) * MB) / n);
      figures.marginalPeakRssBytesPerResource = marginal("operatorPeakRssMb");
      figures.marginalRssSettledBytesPerResource = marginal("rssSettledMb");
      figures.marginalLiveHeapBytesPerResource = marginal("liveHeapAfterMb");
    }
    figures.loadAverage1mAtEnd = +loadavg()[0]!.toFixed(1);
    console.log(figures);
    return figures;
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
