import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { Gauge, type Registry } from "prom-client";
import type { Footprint } from "./footprint.ts";

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
 * - `svc_operator_heap_live_bytes`: the old spaces right after the last full (mark-compact)
 *   collection, i.e. what the heap retains. `process.memoryUsage().heapUsed` at scrape time would
 *   include whatever garbage has piled up since the last collection (up to 2-4x the live heap), so
 *   it cannot tell a leak from a lull. Read from a GC observer: no extra collection is forced. 0
 *   until the first full collection.
 * - `svc_operator_runtime_map_entries{map}`: the entries of each per-object map (footprint.ts),
 *   counted at scrape time.
 *
 * prom-client's default collectors (`nodejs_heap_size_used_bytes`, ...) are not registered here.
 */
export class MemoryMetrics {
  private readonly observer: PerformanceObserver;
  private live = 0;

  constructor(registry: Registry, footprint: () => Footprint) {
    const registers = [registry];
    const heap: Gauge = new Gauge({
      name: "svc_operator_heap_live_bytes",
      help: "V8 heap retained after the last full garbage collection (old spaces), in bytes",
      registers,
      collect: (): void => heap.set(this.live),
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
      if (list.getEntries().some(isFullCollection)) this.live = oldSpaceBytes();
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  /** Bytes retained after the last full collection (0 before the first). */
  get liveHeapBytes(): number {
    return this.live;
  }

  stop(): void {
    this.observer.disconnect();
  }
}

function isFullCollection(entry: PerformanceEntry): boolean {
  const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
  return detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}
