// The operator as a child process for bench/memory.ts: `svc-operator run` with the given entry,
// node flags and environment, which writes a heap snapshot on SIGUSR2 and its process.memoryUsage() to a
// file every 100 ms; the bench reads its RSS and CPU from /proc.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "../../test/proof/rig.ts";
import { type HeapSnapshot, type HeapSummary, summarize } from "./heap-summary.ts";

/** Reconciles at once (--concurrency). */
export const CONCURRENCY = 16;
const MB = 1024 * 1024;

/** How the operator is run: the CLI, node's flags before it and the environment added (the image's). */
export interface OperatorRuns {
  entry: string;
  nodeArgs: string[];
  env: Record<string, string>;
}

/** `svc-operator run` in a child process that writes a heap snapshot on SIGUSR2. */
export class MemoryOperator {
  private child: ChildProcess | undefined;
  private port = 0;
  private readonly lines: string[] = [];
  private readonly kubeconfig: string;
  private readonly dir: string;
  private readonly runs: OperatorRuns;

  constructor(kubeconfig: string, dir: string, runs: OperatorRuns) {
    this.kubeconfig = kubeconfig;
    this.dir = dir;
    this.runs = runs;
  }

  async start(): Promise<void> {
    this.port = await freePort();
    const child = spawn(
      process.execPath,
      [
        ...this.runs.nodeArgs,
        "--heapsnapshot-signal=SIGUSR2",
        `--diagnostic-dir=${this.dir}`,
        `--import=data:text/javascript,${encodeURIComponent(memoryProbe(join(this.dir, "memory.json")))}`,
        this.runs.entry,
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
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...this.runs.env } },
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
   * The child's RSS by where it lives (/proc/<pid>/smaps), in MB: the `node` binary's machine code
   * and read-only data (pages of the executable that running touched: shared, clean, but counted in
   * RSS), other files mapped, JIT code (anonymous executable pages), the brk heap (malloc's main
   * arena), and other anonymous memory (V8's heap pages, malloc's thread arenas, thread stacks).
   */
  async rssByMapping(): Promise<Record<string, number>> {
    const smaps = await readFile(`/proc/${this.child!.pid}/smaps`, "utf8");
    return rssByMapping(smaps, await realpath(process.execPath));
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
      const target = join(keepIn, `operator-${label}.heapsnapshot`);
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

/** Sums smaps' Rss lines by the kind of mapping they belong to (see MemoryOperator.rssByMapping). */
export function rssByMapping(smaps: string, binary: string): Record<string, number> {
  const kb = new Map<string, number>();
  let part = "";
  for (const line of smaps.split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const [, perms, name] = mapping as unknown as [string, string, string];
      part =
        name === binary
          ? perms.includes("x")
            ? "node binary: code"
            : "node binary: data"
          : name === "[heap]"
            ? "malloc main arena (brk)"
            : name.startsWith("/")
              ? "other files (libraries)"
              : perms.includes("x")
                ? "anonymous: JIT code"
                : "anonymous: V8 heap, malloc arenas, stacks";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && part) kb.set(part, (kb.get(part) ?? 0) + Number(rss[1]));
  }
  return Object.fromEntries([...kb].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, +(v / 1024).toFixed(1)]));
}

/**
 * Loaded into the operator before its code (`--import`): every 100 ms it writes the process's
 * memory figures (V8 heap, external, array buffers, RSS) now and at their peaks to a file, so the
 * bench can tell the JavaScript heap from native memory.
 */
function memoryProbe(file: string): string {
  // Written beside and renamed over: the bench never reads a half-written file.
  return `import { renameSync, writeFileSync } from "node:fs";
const peak = {};
const t = setInterval(() => {
  const now = process.memoryUsage();
  for (const [k, v] of Object.entries(now)) peak[k] = Math.max(peak[k] ?? 0, v);
  writeFileSync(${JSON.stringify(`${file}.tmp`)}, JSON.stringify({ now, peak }));
  renameSync(${JSON.stringify(`${file}.tmp`)}, ${JSON.stringify(file)});
}, 100);
t.unref();`;
}
