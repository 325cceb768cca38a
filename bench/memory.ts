// Issue 9 item 1, the part that grows with N: the operator's memory per managed resource.
// For each size (default 1,000 and 3,000 of the mixed set: every kind, with references) a fresh
// devcluster and simulator (child processes, no latency) and the operator as a child process
// (`svc-operator run`, concurrency 16). The operator first runs with only the Account (its idle
// RSS), is stopped, the set is applied, and it starts again with all of it (the initial list is
// part of the peak) and works it to all Ready. Then it writes a heap snapshot (SIGUSR2, which
// collects garbage first): the live heap is the snapshot's total. Reported per resource: the peak
// RSS (VmHWM) over idle, the RSS and the live heap that stay after convergence. The marginal
// figures between the two sizes take the fixed cost out.
//   BENCH_MEMORY_SIZES=1000,3000   BENCH_MEMORY_SET=mixed|deployment
//   BENCH_MEMORY_ENTRY=dist/cli.js (the CLI to run; the sources by default)
//   BENCH_MEMORY_SNAPSHOT=<dir>    keep the heap snapshots there (for retainer analysis)
//   BENCH_MEMORY_TRACE=1           print the operator's memory every second while it converges
//   BENCH_MEMORY_NODE_FLAGS="..."  more node flags for the operator (GC settings, profilers)
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import * as k8s from "@kubernetes/client-node";
import { parse } from "yaml";
import type { ManagedObject } from "../src/runtime/kind.ts";
import { RawKube } from "../src/runtime/kube-raw.ts";
import { GROUP, VERSION } from "../src/runtime/names.ts";
import { type Manifest, mixedSet, PLURAL, SCRIPTS_CONFIG_MAP } from "../test/proof/mixed.ts";
import { freePort } from "../test/proof/rig.ts";
import { pool, ready, startInfra, stopInfra } from "./lib/operator-rig.ts";

const ROOT = join(import.meta.dirname, "..");
const SIZES = (process.env.BENCH_MEMORY_SIZES ?? "1000,3000").split(",").map(Number);
const SET = process.env.BENCH_MEMORY_SET ?? "mixed";
const ENTRY = resolve(ROOT, process.env.BENCH_MEMORY_ENTRY ?? "src/cli.ts");
const CONCURRENCY = 16;
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

/** `svc-operator run` in a child process that writes a heap snapshot on SIGUSR2. */
class Operator {
  private child: ChildProcess | undefined;
  private port = 0;
  private readonly lines: string[] = [];
  private readonly kubeconfig: string;
  private readonly dir: string;

  constructor(kubeconfig: string, dir: string) {
    this.kubeconfig = kubeconfig;
    this.dir = dir;
  }

  async start(): Promise<void> {
    this.port = await freePort();
    const child = spawn(
      process.execPath,
      [
        "--heapsnapshot-signal=SIGUSR2",
        `--diagnostic-dir=${this.dir}`,
        ...(process.env.BENCH_MEMORY_NODE_FLAGS ?? "").split(" ").filter(Boolean),
        `--import=data:text/javascript,${encodeURIComponent(memoryProbe(join(this.dir, "memory.json")))}`,
        ENTRY,
        "run",
        "--kubeconfig",
        this.kubeconfig,
        "--concurrency",
        String(CONCURRENCY),
        "--api-rate",
        "10000",
        "--log-level",
        "warn",
        "--metrics-address",
        `127.0.0.1:${this.port}`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.child = child;
    const reap = () => child.kill("SIGKILL");
    process.once("exit", reap);
    child.once("exit", () => process.off("exit", reap));
    for (const s of [child.stdout!, child.stderr!])
      createInterface({ input: s }).on("line", (l) => this.lines.push(l));
    await this.until("operator /healthz", async () => {
      return fetch(`http://127.0.0.1:${this.port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    });
  }

  private async until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000, everyMs = 100) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (this.child?.exitCode !== null)
        throw new Error(`operator exited with ${this.child?.exitCode}: ${this.lines.slice(-5).join("\n")}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  /** One /metrics scrape, as Prometheus makes it (its size in bytes). */
  async scrape(): Promise<number> {
    return (await (await fetch(`http://127.0.0.1:${this.port}/metrics`)).arrayBuffer()).byteLength;
  }

  /** VmRSS and VmHWM of the child, in MB. */
  async rss(): Promise<{ rssMb: number; peakRssMb: number }> {
    const status = await readFile(`/proc/${this.child!.pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
    return { rssMb: Math.round(kb("VmRSS") / 1024), peakRssMb: Math.round(kb("VmHWM") / 1024) };
  }

  /**
   * The live heap from a heap snapshot the child writes on SIGUSR2 (it collects garbage first):
   * its total and its bytes by type (objects by constructor).
   */
  async liveHeap(keepIn: string | undefined, label: string): Promise<HeapSummary> {
    const before = new Set(await readdir(this.dir));
    this.child!.kill("SIGUSR2");
    let file = "";
    let summary: HeapSummary | undefined;
    // The file grows while it is written: done when it parses.
    await this.until(
      "heap snapshot",
      async () => {
        const fresh = (await readdir(this.dir)).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
        if (!fresh) return false;
        file = join(this.dir, fresh);
        const text = await readFile(file, "utf8");
        if (!text.endsWith("}")) return false;
        try {
          summary = summarize(JSON.parse(text) as HeapSnapshot);
          return true;
        } catch {
          return false;
        }
      },
      120_000,
      500,
    );
    if (keepIn) {
      await mkdir(keepIn, { recursive: true });
      const target = join(keepIn, `operator-${SET}-${label}.heapsnapshot`);
      await writeFile(target, await readFile(file));
      console.log(`heap snapshot: ${target}`);
    }
    await rm(file);
    return summary!;
  }

  /** User + system CPU time of the child so far, in ms (clock ticks of 10 ms). */
  async cpuMs(): Promise<number> {
    const stat = await readFile(`/proc/${this.child!.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }

  /** The child's process.memoryUsage() now and its peaks, in MB (from the probe's file). */
  async memory(): Promise<{ now: Record<string, number>; peak: Record<string, number> }> {
    const m = JSON.parse(await readFile(join(this.dir, "memory.json"), "utf8")) as {
      now: Record<string, number>;
      peak: Record<string, number>;
    };
    const mb = (o: Record<string, number>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, +(v / MB).toFixed(1)]));
    return { now: mb(m.now), peak: mb(m.peak) };
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * Loaded into the operator before its code (`--import`): every 100 ms it writes the process's
 * memory figures (V8 heap, external, array buffers, RSS) now and at their peaks to a file, so the
 * bench can tell the JavaScript heap from native memory.
 */
function memoryProbe(file: string): string {
  return `import { writeFileSync } from "node:fs";
const peak = {};
const t = setInterval(() => {
  const now = process.memoryUsage();
  for (const [k, v] of Object.entries(now)) peak[k] = Math.max(peak[k] ?? 0, v);
  writeFileSync(${JSON.stringify(file)}, JSON.stringify({ now, peak }));
}, 100);
t.unref();`;
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

interface HeapSummary {
  mb: number;
  /** Self bytes by node type, objects and closures by constructor name. */
  byType: Map<string, number>;
}

function summarize(snap: HeapSnapshot): HeapSummary {
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const byType = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const label =
      type === "object" || type === "closure" ? `${type} ${snap.strings[snap.nodes[i + nameAt]!]}` : type;
    const bytes = snap.nodes[i + sizeAt]!;
    byType.set(label, (byType.get(label) ?? 0) + bytes);
    total += bytes;
  }
  return { mb: +(total / MB).toFixed(1), byType };
}

/** What grew most between two snapshots, in bytes per resource. */
function growth(from: HeapSummary, to: HeapSummary, resources: number, top = 8): Record<string, number> {
  return Object.fromEntries(
    [...to.byType]
      .map(
        ([label, bytes]) => [label, Math.round((bytes - (from.byType.get(label) ?? 0)) / resources)] as const,
      )
      .sort((a, b) => b[1] - a[1])
      .slice(0, top),
  );
}

async function phase(size: number, keepSnapshots: string | undefined): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), "bench-memory-"));
  const infra = await startInfra(0);
  const kubeconfig = join(dir, "kubeconfig");
  await writeFile(kubeconfig, infra.kubeconfig, { mode: 0o600 });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(infra.kubeconfig);
  const raw = new RawKube(kc);
  const ns = "memory";
  const create = (kind: string, name: string, spec: Record<string, unknown>) =>
    raw.call("POST", `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL[kind] ?? "accounts"}`, {
      apiVersion: `${GROUP}/${VERSION}`,
      kind,
      metadata: { name },
      spec,
    });
  const op = new Operator(kubeconfig, dir);
  /** Resources of the kinds whose Ready condition is True for their generation (read from the devcluster). */
  const readyIn = async (kinds: string[]) => {
    let n = 0;
    for (const kind of kinds) {
      const list = await raw.call<{ items: ManagedObject[] }>(
        "GET",
        `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL[kind] ?? "accounts"}`,
      );
      n += list.items.filter(
        (o) => ready(o) && o.status?.observedGeneration === o.metadata.generation,
      ).length;
    }
    return n;
  };
  const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (!op.running) throw new Error(`the operator exited while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
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
    await op.start();
    await waitFor("the Account Ready", async () => (await readyIn(["Account"])) === 1, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = await op.rss();
    const idleHeap = await op.liveHeap(keepSnapshots, "idle");
    await op.stop();

    const set = manifests(size);
    await pool([...set].reverse(), 32, (m) => create(m.kind, m.name, m.spec));

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
    try {
      await waitFor(
        `${set.length} resources Ready`,
        async () => (await readyIn(kinds)) >= set.length,
        300_000,
      );
    } finally {
      clearInterval(scraper);
      clearInterval(tracer);
    }
    const convergeMs = Math.round(performance.now() - started);
    const peak = await op.rss();
    const cpuMs = await op.cpuMs();
    const usage = await op.memory();
    // Let the last status writes and events finish before measuring what stays.
    await new Promise((r) => setTimeout(r, 2000));
    // RSS as it stays (read before the snapshot, whose writing grows the process by itself).
    const settled = await op.rss();
    const liveHeap = await op.liveHeap(keepSnapshots, String(size));
    const usageAfterGc = await op.memory();
    const per = (mb: number) => Math.round((mb * MB) / set.length);
    return {
      resources: set.length,
      convergeMs,
      // Start-up included: compare between runs (node flags), not with the other benches' per-reconcile CPU.
      operatorCpuMs: cpuMs,
      idleRssMb: idle.rssMb,
      idleLiveHeapMb: idleHeap.mb,
      peakRssMb: peak.peakRssMb,
      rssSettledMb: settled.rssMb,
      liveHeapAfterMb: liveHeap.mb,
      scrapeBytes,
      peakRssOverIdleBytesPerResource: per(peak.peakRssMb - idle.rssMb),
      liveHeapBytesPerResource: per(liveHeap.mb - idleHeap.mb),
      liveHeapGrowthByTypeBytesPerResource: growth(idleHeap, liveHeap, set.length),
      peakUsageMb: usage.peak,
      usageAfterGcMb: usageAfterGc.now,
    };
  } finally {
    await op.stop();
    await raw.close();
    await stopInfra(infra);
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = {
    set: SET,
    entry: relative(ROOT, ENTRY),
    concurrency: CONCURRENCY,
    perResourceGoalBytes: "<= 8,000 (under 200 MB at 10,000 resources on a ~100 MB baseline)",
  };
  const results = new Map<number, Record<string, unknown>>();
  for (const size of SIZES) {
    const f = await phase(size, process.env.BENCH_MEMORY_SNAPSHOT);
    results.set(size, f);
    for (const [k, v] of Object.entries(f)) figures[`n${size}.${k}`] = v;
    console.log({ size, ...f });
  }
  if (SIZES.length >= 2) {
    const a = results.get(Math.min(...SIZES))!;
    const b = results.get(Math.max(...SIZES))!;
    const n = Number(b.resources) - Number(a.resources);
    const marginal = (field: string) => Math.round(((Number(b[field]) - Number(a[field])) * MB) / n);
    figures.marginalPeakRssBytesPerResource = marginal("peakRssMb");
    figures.marginalRssSettledBytesPerResource = marginal("rssSettledMb");
    figures.marginalLiveHeapBytesPerResource = marginal("liveHeapAfterMb");
  }
  console.log(figures);
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run();
