// The devcluster under load: watch fan-out (events per second delivered to 10 watchers while
// objects are written over HTTP) and list latency with 10,000 custom resources (full list,
// label-selected list, paged list). Everything runs in this process: the figures include the
// client's work (HTTP, JSON parsing) as a real informer would pay it.
import { pathToFileURL } from "node:url";
import { Agent, request } from "undici";
import { createDevCluster } from "../src/devcluster/index.ts";

const GROUP = "bench.svc.io";
const WATCHERS = 10;
const FANOUT_WRITES = 2_000;
const LIST_OBJECTS = 10_000;
const WRITE_CONCURRENCY = 16;

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `things.${GROUP}` },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: { plural: "things", singular: "thing", kind: "Thing" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: {
                  size: { type: "integer", minimum: 0 },
                  cidrBlock: { type: "string", pattern: "^[0-9./]+$" },
                  description: { type: "string", maxLength: 200 },
                },
              },
              status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            },
          },
        },
      },
    ],
  },
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

export async function run(): Promise<Record<string, unknown>> {
  const cluster = await createDevCluster({ historyLimit: 50_000 });
  const agent = new Agent({ connections: 64 });
  const headers = { Authorization: `Bearer ${cluster.token}`, "Content-Type": "application/json" };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${cluster.url}${path}`, {
      method: method as "GET" | "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: agent,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return text;
  };
  const things = `/apis/${GROUP}/v1/namespaces/default/things`;
  const writeMany = async (count: number, make: (i: number) => unknown) => {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < count; i = next++) await call("POST", things, make(i));
    };
    await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
  };
  const thing = (name: string, i: number, labels: Record<string, string>) => ({
    apiVersion: `${GROUP}/v1`,
    kind: "Thing",
    metadata: { name, labels },
    spec: { size: i, cidrBlock: "10.0.0.0/16", description: `thing number ${i}` },
  });

  try {
    await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);

    // Watch fan-out: 10 watchers from the current resourceVersion, then 2,000 creates.
    const rv = JSON.parse(await call("GET", things)).metadata.resourceVersion as string;
    const controllers: AbortController[] = [];
    const counts = new Array<number>(WATCHERS).fill(0);
    let allDone!: () => void;
    const done = new Promise<void>((resolve) => {
      allDone = resolve;
    });
    const readers = Array.from({ length: WATCHERS }, async (_, w) => {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await request(`${cluster.url}${things}?watch=true&resourceVersion=${rv}`, {
        headers,
        signal: controller.signal,
        dispatcher: agent,
      });
      try {
        for await (const chunk of res.body) {
          const value = chunk as Buffer;
          for (let at = value.indexOf(10); at >= 0; at = value.indexOf(10, at + 1)) counts[w]! += 1;
          if (counts.every((c) => c >= FANOUT_WRITES)) allDone();
        }
      } catch {
        // aborted at the end
      }
    });
    await new Promise((r) => setTimeout(r, 100));
    const fanoutStart = performance.now();
    await writeMany(FANOUT_WRITES, (i) => thing(`fan-${i}`, i, { phase: "fanout" }));
    const writesDone = performance.now();
    await done;
    const fanoutMs = performance.now() - fanoutStart;
    for (const c of controllers) c.abort();
    await Promise.allSettled(readers);
    const delivered = counts.reduce((a, b) => a + b, 0);

    // List latency with 10,000 custom resources.
    await writeMany(LIST_OBJECTS - FANOUT_WRITES, (i) =>
      thing(`item-${String(i).padStart(5, "0")}`, i, { group: `g${i % 10}` }),
    );
    const timeList = async (path: string, runs: number) => {
      const times: number[] = [];
      let items = 0;
      for (let r = 0; r < runs; r++) {
        const started = performance.now();
        const body = JSON.parse(await call("GET", path));
        times.push(performance.now() - started);
        items = body.items.length;
      }
      times.sort((a, b) => a - b);
      return { items, p50: round(percentile(times, 50)), max: round(times.at(-1)!) };
    };
    const full = await timeList(things, 10);
    const selected = await timeList(`${things}?labelSelector=group%3Dg3`, 10);
    const pagedStart = performance.now();
    let token = "";
    let pages = 0;
    let pagedItems = 0;
    do {
      const body = JSON.parse(await call("GET", `${things}?limit=500${token ? `&continue=${token}` : ""}`));
      pagedItems += body.items.length;
      token = body.metadata.continue ?? "";
      pages += 1;
    } while (token);
    const pagedMs = performance.now() - pagedStart;

    const figures = {
      watch_fanout_watchers: WATCHERS,
      watch_fanout_events_delivered: delivered,
      watch_fanout_events_per_s: Math.round(delivered / (fanoutMs / 1000)),
      watch_fanout_writes_per_s: Math.round(FANOUT_WRITES / ((writesDone - fanoutStart) / 1000)),
      watch_fanout_lag_after_last_write_ms: round(fanoutMs - (writesDone - fanoutStart)),
      list_objects: full.items,
      list_full_p50_ms: full.p50,
      list_full_max_ms: full.max,
      list_label_selected_items: selected.items,
      list_label_selected_p50_ms: selected.p50,
      list_paged_500_pages: pages,
      list_paged_500_items: pagedItems,
      list_paged_500_total_ms: round(pagedMs),
    };
    console.log(
      [
        `watch fan-out: ${figures.watch_fanout_events_per_s} events/s delivered to ${WATCHERS} watchers ` +
          `(${delivered} events for ${FANOUT_WRITES} creates at ${figures.watch_fanout_writes_per_s} writes/s over HTTP; ` +
          `last event ${figures.watch_fanout_lag_after_last_write_ms} ms after the last write)`,
        `list of ${full.items} custom resources: p50 ${full.p50} ms, max ${full.max} ms (HTTP + JSON.parse in the same process)`,
        `label-selected list (${selected.items} of ${full.items}): p50 ${selected.p50} ms`,
        `paged list, limit=500: ${pages} pages, ${pagedItems} items in ${figures.list_paged_500_total_ms} ms`,
      ].join("\n"),
    );
    return figures;
  } finally {
    await cluster.close();
    await agent.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run();
}
