// Issue 16 item 3: the operator under churn for a long time, its memory measured every minute.
// A devcluster and a simulator in this process, the operator as a child process
// (`svc-operator run`, with the image's node flags and env): the mixed set of every kind is applied
// and converged, then every 10 s about 1% of it is changed, deleted or recreated (churn.ts) while
// 5% of the service calls fail (500, 503, 429, a create committed and its answer dropped). Every
// minute: the operator's RSS, its live heap (the heap used right after a full collection the soak
// asks for through a probe loaded into the operator; beside it the operator's own cheap gauge,
// `svc_operator_heap_live_bytes`, which forces nothing) and the entries of each per-object map
// (`svc_operator_runtime_map_entries`). The goal: from minute 2 on, RSS and live heap grow by 5%
// at most, and no map grows with the churn.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { imageRuntime } from "../../bench/lib/node-options.ts";
import { mixedSet } from "../proof/mixed.ts";
import {
  accountNamespace,
  applyManifest,
  OperatorProcess,
  pool,
  setFaults,
  startRig,
  until,
  waitAccountReady,
} from "../proof/rig.ts";
import { apiCalls, type SimStats } from "../proof/sim.ts";
import { Churn } from "./churn.ts";

/** 5% of the service calls fail. */
export const SOAK_FAULTS = {
  error500: 0.015,
  error503: 0.015,
  throttle429: 0.01,
  retryAfterSeconds: 1,
  commitThenDrop: 0.01,
};

export interface SoakOptions {
  minutes: number;
  resources: number;
  /** Seconds between churn rounds (10). */
  roundSeconds?: number;
  /** The minute growth is measured from (2: start-up and the first resyncs settle before it). */
  baseMinute?: number;
  log?: (line: string) => void;
}

export interface Sample {
  minute: number;
  /** The operator's resident memory (process.memoryUsage().rss, as /proc's VmRSS). */
  rssMb: number;
  /** The heap used right after a forced full collection (the probe's). */
  liveHeapMb: number;
  /** The operator's own `svc_operator_heap_live_bytes` (no collection forced). */
  gaugeMb: number;
  /** What RSS is made of (process.memoryUsage() in the operator): the V8 heap V8 holds, used or not. */
  heapTotalMb: number;
  /** Memory outside the V8 heap that JavaScript objects hold (buffers). */
  externalMb: number;
  /** Entries of each per-object map. */
  maps: Record<string, number>;
  reconciles: number;
  liveResources: number;
  load1m: number;
}

export interface Growth {
  /** Last sample against the base minute's, percent. */
  endPct: number;
  /** Highest sample from the base minute on against the base minute's, percent. */
  peakPct: number;
  /** Least-squares slope from the base minute on, as percent of the base per 15 minutes. */
  trendPctPer15m: number;
}

export interface SoakResult {
  samples: Sample[];
  rss: Growth;
  liveHeap: Growth;
  /** Maps whose entries grew from the base minute to the end by more than 5% and 20 entries. */
  growingMaps: Record<string, [number, number]>;
  figures: Record<string, unknown>;
  passed: boolean;
  /** Whether the trend per 15 minutes was judged (enough samples from minute 2). */
  trendJudged: boolean;
}

const NS = "soak";

/**
 * Caches not kept per object, which fill up to a fixed size by design (their sizes in the code):
 * growth below the cap is their normal course. Every other map must not grow with the churn.
 */
const CAPPED: Record<string, number> = {
  "informers.stringPool": 8192,
  // Lists and the conditions in them: starts over at 1,024 lists (of up to four conditions).
  "informers.conditionPool": 1024 * 5,
  "informers.leafPool": 4096,
  "events.aggregates": 4096,
  "links.found": 10_000,
  "names.cache": 10_000,
};
const MB = 1024 * 1024;

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => {});
  const roundMs = (options.roundSeconds ?? 10) * 1000;
  const baseMinute = options.baseMinute ?? 2;
  const dir = await mkdtemp(join(tmpdir(), "soak-"));
  const rig = await startRig({ dir });
  const probe = join(dir, "memory.json");
  const image = await imageRuntime();
  const op = new OperatorProcess(
    rig,
    { concurrency: "16", "api-rate": "10000", resync: "1m", "log-level": "warn" },
    undefined,
    { ...image.env, NODE_OPTIONS: `${image.env.NODE_OPTIONS} --expose-gc --import=${memoryProbe(probe)}` },
    image.nodeArgs,
  );
  const samples: Sample[] = [];
  const figures: Record<string, unknown> = { loadAverage1mAtStart: +loadavg()[0]!.toFixed(1) };
  try {
    await op.start();
    await accountNamespace(rig, NS);
    await waitAccountReady(rig, NS);
    const set = mixedSet(options.resources, "s");
    figures.resources = set.length;
    await setFaults(rig, SOAK_FAULTS);
    const t0 = performance.now();
    await pool(set, 16, (m) => applyManifest(rig, NS, m));
    const ready = () =>
      op.metric("svc_operator_resources", 'condition="Ready",status="True"', 'kind="Account"');
    await until(
      `${set.length} resources Ready`,
      async () => (await ready()) >= set.length,
      15 * 60_000,
      1000,
    );
    figures.convergeS = Math.round((performance.now() - t0) / 1000);
    log(`${set.length} resources Ready in ${figures.convergeS} s (5% faults); churn starts`);

    const churn = new Churn({ custom: rig.custom, namespace: NS, set });
    const started = performance.now();
    const rounds = { changed: 0, deleted: 0, recreated: 0, n: 0 };
    const calls0 = apiCalls(rig.sim.core.stats.report());
    const sample = async (minute: number): Promise<Sample> => {
      const maps = Object.fromEntries(
        Object.entries(await op.series("svc_operator_runtime_map_entries")).map(([labels, v]) => [
          /map="([^"]+)"/.exec(labels)?.[1] ?? labels,
          v,
        ]),
      );
      // The operator's gauge first: the forced collection below would be its next reading.
      const gaugeMb = +((await op.metric("svc_operator_heap_live_bytes")) / MB).toFixed(1);
      const usage = await measure(op, probe);
      const s: Sample = {
        minute,
        rssMb: usage.rss!,
        liveHeapMb: usage.heapUsed!,
        gaugeMb,
        heapTotalMb: usage.heapTotal!,
        externalMb: usage.external!,
        maps,
        reconciles: await op.metric("svc_operator_reconcile_total"),
        liveResources: churn.liveResources,
        load1m: +loadavg()[0]!.toFixed(1),
      };
      samples.push(s);
      log(
        `minute ${String(minute).padStart(2)}: RSS ${s.rssMb} MB (V8 heap ${s.heapTotalMb}, external ${s.externalMb}), ` +
          `live heap ${s.liveHeapMb} MB (gauge ${s.gaugeMb}), ` +
          `${s.liveResources} resources, ${s.reconciles} reconciles, load ${s.load1m}; maps ${summary(maps)}`,
      );
      return s;
    };
    await sample(0);
    let nextMinute = 1;
    const endAt = started + options.minutes * 60_000;
    while (performance.now() < endAt) {
      const r = await churn.next();
      rounds.n++;
      rounds.changed += r.changed;
      rounds.deleted += r.deleted;
      rounds.recreated += r.recreated;
      // Sleep to the next round, sampling at each minute mark on the way.
      const roundEnd = Math.min(endAt, started + rounds.n * roundMs);
      while (performance.now() < roundEnd) {
        const minuteAt = started + nextMinute * 60_000;
        if (minuteAt <= roundEnd) {
          await sleep(minuteAt - performance.now());
          await sample(nextMinute++);
        } else await sleep(roundEnd - performance.now());
      }
    }
    if (samples.at(-1)!.minute < options.minutes) await sample(nextMinute);
    const stats = rig.sim.core.stats.report() as SimStats;
    const byStatus = (code: number) =>
      stats.requests.filter((q) => q.status === code).reduce((n, q) => n + q.count, 0);
    Object.assign(figures, {
      churnRounds: rounds.n,
      specsChanged: rounds.changed,
      resourcesDeleted: rounds.deleted,
      resourcesRecreated: rounds.recreated,
      apiCallsDuringChurn: apiCalls(stats) - calls0,
      injected500: byStatus(500),
      injected503: byStatus(503),
      injected429: byStatus(429),
      operatorLogLines: op.lines.length,
      loadAverage1mAtEnd: +loadavg()[0]!.toFixed(1),
    });
  } finally {
    await op.kill("SIGKILL");
    await rig.close();
    await rm(dir, { recursive: true, force: true });
  }
  const from = samples.filter((s) => s.minute >= baseMinute);
  const rss = growth(from.map((s) => [s.minute, s.rssMb]));
  const liveHeap = growth(from.map((s) => [s.minute, s.liveHeapMb]));
  const growingMaps: Record<string, [number, number]> = {};
  const [first, last] = [from[0], from.at(-1)];
  if (first && last) {
    for (const [map, end] of Object.entries(last.maps)) {
      const begin = first.maps[map] ?? 0;
      const cap = CAPPED[map];
      if (cap !== undefined ? end > cap : end > begin * 1.05 + 20) growingMaps[map] = [begin, end];
    }
  }
  // A trend drawn through fewer points than TREND_POINTS extrapolates noise to 15 minutes: a short
  // soak is judged by its growth alone.
  const trendJudged = from.length >= TREND_POINTS;
  const within = (g: Growth) => g.endPct <= 5 && (!trendJudged || g.trendPctPer15m <= 5);
  const passed = from.length >= 2 && within(rss) && within(liveHeap) && Object.keys(growingMaps).length === 0;
  return { samples, rss, liveHeap, growingMaps, figures, passed, trendJudged };
}

/**
 * Loaded into the operator before its code (`--import`, through NODE_OPTIONS, with `--expose-gc`):
 * on SIGUSR2 it collects all garbage and writes process.memoryUsage() to `file` with a sequence
 * number. The soak's own measure, exact where the operator's gauge is as cheap as can be: the heap
 * used right after a forced full collection is the live heap, whatever the operator was doing.
 * Test code only: the operator never forces a collection. As a data: URL (NODE_OPTIONS splits on
 * spaces) the code is encoded.
 */
function memoryProbe(file: string): string {
  // Written aside and renamed: the soak never reads half a file.
  const code = `import { renameSync, writeFileSync } from "node:fs";
let seq = 0;
process.on("SIGUSR2", () => {
  globalThis.gc();
  writeFileSync(${JSON.stringify(`${file}.tmp`)}, JSON.stringify({ seq: ++seq, ...process.memoryUsage() }));
  renameSync(${JSON.stringify(`${file}.tmp`)}, ${JSON.stringify(file)});
});`;
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

/** Asks the probe for a full collection and its figures, in MB. */
async function measure(op: OperatorProcess, file: string): Promise<Record<string, number>> {
  const read = async (): Promise<Record<string, number>> => {
    try {
      return JSON.parse(await readFile(file, "utf8")) as Record<string, number>;
    } catch {
      return { seq: 0 }; // not written yet
    }
  };
  const before = (await read()).seq ?? 0;
  op.child!.kill("SIGUSR2");
  let usage = await read();
  for (let i = 0; i < 200 && (usage.seq ?? 0) <= before; i++) {
    await sleep(50);
    usage = await read();
  }
  if ((usage.seq ?? 0) <= before) throw new Error("the operator's memory probe did not answer within 10 s");
  return Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, +(v / MB).toFixed(1)]));
}

/** Samples (a minute apart, from minute 2) a trend needs before it is judged. */
export const TREND_POINTS = 5;

/** Growth of `[minute, value]` points against the first one. */
export function growth(points: [number, number][]): Growth {
  if (points.length < 2) return { endPct: 0, peakPct: 0, trendPctPer15m: 0 };
  const base = points[0]![1];
  const pct = (v: number) => +(((v - base) / base) * 100).toFixed(1);
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return {
    endPct: pct(points.at(-1)![1]),
    peakPct: pct(Math.max(...points.map(([, y]) => y))),
    trendPctPer15m: +((((sxy / sxx) * 15) / base) * 100).toFixed(1),
  };
}

/** The maps, largest first, as `name=entries`. */
function summary(maps: Record<string, number>): string {
  return Object.entries(maps)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}
