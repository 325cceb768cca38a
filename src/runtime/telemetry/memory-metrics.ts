import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { Gauge, type Registry } from "prom-client";
import type { Footprint } from "../../lib/index.ts";

/** Young-generation spaces: what is in them right after a collection is new, not retained. */
const YOUNG_SPACES = new Set(["new_space", "new_large_object_space"]);

/** Bytes held in the V8 heap's old spaces (old, code, large objects, ...), live and dead. */
export function oldSpaceBytes(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics())
    if (!YOUNG_SPACES.has(space.space_name)) used += space.space_used_size;
  return used;
}

/**
 * Memory figures of the operator itself, for `npm run soak` and for whoever watches a long-running
 * one:
 *
 * - `svc_operator_heap_live_bytes`: the old spaces right after a full (mark-compact) collection,
 *   i.e. what the heap retains: the smallest such reading of the last minute (the latest when
 *   there was none). `process.memoryUsage().heapUsed` at scrape time would include whatever
 *   garbage has piled up since the last collection (up to 2-4x the live heap), so it cannot tell a
 *   leak from a lull; and one collection that happens to run amid a resync (thousands of index
 *   items alive for a moment) reads a few MB high, which the minimum leaves out, while a leak
 *   raises every reading. Read from a GC observer: no extra collection is forced (and one forced
 *   by a tool is not counted, so that `npm run soak`, which forces its own, compares the two). 0
 *   until the first full collection.
 * - `svc_operator_runtime_map_entries{map}`: the entries of each per-object map (footprint.ts),
 *   counted at scrape time.
 *
 * prom-client's default collectors (`nodejs_heap_size_used_bytes`, ...) are not registered here.
 */
export class MemoryMetrics {
  private readonly observer: PerformanceObserver;
  /** Readings after full collections, oldest first, within the window (and always the latest). */
  private readings: { at: number; bytes: number }[] = [];
  private readonly now: () => number;
  private readonly windowMs: number;

  constructor(
    registry: Registry,
    footprint: () => Footprint,
    options: { now?: () => number; windowMs?: number } = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.windowMs = options.windowMs ?? 60_000;
    const registers = [registry];
    const heap: Gauge = new Gauge({
      name: "svc_operator_heap_live_bytes",
      help: "V8 heap retained after a full garbage collection (old spaces), the least of the last minute, in bytes",
      registers,
      collect: (): void => heap.set(this.liveHeapBytes),
    });
    const entries = new Gauge({
      name: "svc_operator_runtime_map_entries",
      help: "Entries of each per-object map of the runtime (queue, indexes, caches); they shrink when objects are deleted",
      labelNames: ["map"],
      registers,
      collect: () => {
        entries.reset();
        for (const [map, f] of Object.entries(footprint())) entries.set({ map }, f.entries);
      },
    });
    // Delivered after the collection, batched: the old spaces have not grown since, short of a
    // promotion in between (young objects are left out).
    this.observer = new PerformanceObserver((list) => {
      if (list.getEntries().some(isFullCollection)) this.record(oldSpaceBytes());
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  /** Bytes retained after a full collection: the least of the window's (0 before the first). */
  get liveHeapBytes(): number {
    const since = this.now() - this.windowMs;
    let least: number | undefined;
    for (const r of this.readings)
      if (r.at >= since && (least === undefined || r.bytes < least)) least = r.bytes;
    return least ?? this.readings.at(-1)?.bytes ?? 0;
  }

  /** A reading after a full collection (the GC observer's; tests call it directly). */
  record(bytes: number): void {
    const at = this.now();
    this.readings.push({ at, bytes });
    // Keep the window's readings and the latest: a few dozen at most (full collections are rare).
    const since = at - this.windowMs;
    this.readings = this.readings.filter((r, i, all) => r.at >= since || i === all.length - 1);
  }

  stop(): void {
    this.observer.disconnect();
  }
}

/** A full collection V8 ran by itself: one forced by a tool (`gc()`, a heap snapshot) is left out. */
export function isFullCollection(entry: Pick<PerformanceEntry, "entryType">): boolean {
  const { detail } = entry as PerformanceEntry & { detail?: { kind?: number; flags?: number } };
  return (
    detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR &&
    ((detail.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) === 0
  );
}
