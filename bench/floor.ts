// What one exchange costs the operator in CPU, through its own client code, and from that the
// floor per created resource: the CPU no reconcile code can save while the protocol makes the
// exchanges docs/operator.md lists. The devcluster and the simulator run in processes of their
// own (bench/lib/floor-kube.ts, floor-service.ts); this process is the client alone, and its CPU
// (process.cpuUsage, user + system, GC included) over a run of OPS exchanges is the figure.
//
// A Kubernetes write's run ends when the informer watching the kind has decoded the watch event
// of every write: a write costs the operator its request, its answer and the event it causes.
// The operator's handlers of that event (filters, indexes, the queue) are not counted. A service
// call's run ends with its last answer (the simulator at latency 0).
//
// Runs rotate over the exchanges (a busy neighbour then hits each alike), REPEATS of each: the
// median is the figure, every run's is printed beside it.
import { cpus } from "node:os";
import { pathToFileURL } from "node:url";
import { type KubeSide, type KubeWrite, startKubeSide } from "./lib/floor-kube.ts";
import { type ServiceCall, type ServiceSide, startServiceSide } from "./lib/floor-service.ts";
import { median } from "./lib/median-run.ts";

/** Exchanges in flight at once: the operator's 16 API connections (and as many writes). */
const WIDTH = 16;
const OPS = opsPerRun(process.env.BENCH_FLOOR_OPS);
const SEQUENTIAL_OPS = Math.max(2, Math.round(OPS / 6));
const REPEATS = 3;
const GOAL_MS_PER_RECONCILE = 0.6;

type Exchange = { kube: KubeWrite } | { service: ServiceCall };
const EXCHANGES = {
  intentPatch: { kube: "intentPatch" },
  hrefPatch: { kube: "hrefPatch" },
  statusWrite: { kube: "statusWrite" },
  auditHrefStatusWrite: { kube: "auditHrefStatusWrite" },
  serviceShow: { service: "show" },
  serviceCreate: { service: "create" },
  auditCreate: { service: "auditCreate" },
} satisfies Record<string, Exchange>;
type Name = keyof typeof EXCHANGES;
const NAMES = Object.keys(EXCHANGES) as Name[];

/**
 * The floor per created resource (ms), from the CPU per exchange. Counted, after docs/operator.md
 * ("Kubernetes writes per created resource: three", and the audit trail after them):
 * - the create intent (the create-pending annotation, with the finalizer when missing; optimistic,
 *   its answer read) + its event;
 * - the href annotation that clears create-pending (answer not read) + its event;
 * - the status with the href and Ready (answer not read) + its event;
 * - the audit trail's `status.auditEntryHref` write + its event;
 * - 1.2 service calls: the create, and 0.2 for the share of a batched index read and the updates
 *   a create cannot carry (1.02 calls per resource for Deployments, 1.15 needed for the mixed
 *   set: docs/operator.md, docs/proof.md), counted as shows;
 * - the audit trail's one call (its entry's create).
 */
function floorMs(ms: Record<Name, number>): number {
  return (
    ms.intentPatch +
    ms.hrefPatch +
    ms.statusWrite +
    ms.auditHrefStatusWrite +
    ms.serviceCreate +
    0.2 * ms.serviceShow +
    ms.auditCreate
  );
}

function opsPerRun(value: string | undefined): number {
  if (value === undefined) return 2000;
  const ops = Number(value);
  if (!Number.isInteger(ops) || ops < 2)
    throw new Error(
      `BENCH_FLOOR_OPS: must be a whole number of exchanges per run, at least 2; got "${value}"`,
    );
  return ops;
}

/** Numbers every exchange of the process: each write changes its object, each create's name is new. */
let sequence = 0;

/** CPU ms per exchange over `ops` of them, `width` in flight (writes: events decoded included). */
async function cpuPerOp(kube: KubeSide, service: ServiceSide, name: Name, ops: number, width: number) {
  const exchange: Exchange = EXCHANGES[name];
  const eventsAfter = kube.events + ("kube" in exchange ? ops : 0);
  const one =
    "kube" in exchange
      ? (slot: number) => kube.write(exchange.kube, slot, sequence++)
      : () => service.call(exchange.service, sequence++);
  let started = 0;
  const before = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: width }, async (_, slot) => {
      while (started++ < ops) await one(slot);
    }),
  );
  await kube.untilEvents(eventsAfter);
  const spent = process.cpuUsage(before);
  return {
    cpuMs: (spent.user + spent.system) / 1000 / ops,
    systemShare: spent.system / (spent.user + spent.system),
    wallMs: (performance.now() - t0) / ops,
  };
}

/**
 * The CPU ms of a fixed piece of work (a watch event's line parsed and written again, 5,000 times),
 * taken before each run: the shared machine's speed swings by up to 2 times from one minute to
 * the next (the same work measured at 80 and at 166 ms), and this says how fast it was meanwhile.
 */
function referenceCpuMs(): number {
  const line = JSON.stringify({ type: "MODIFIED", object: REFERENCE_OBJECT });
  const before = process.cpuUsage();
  let chars = 0;
  for (let i = 0; i < 5000; i++) chars += JSON.stringify(JSON.parse(line)).length;
  const spent = process.cpuUsage(before);
  if (chars === 0) throw new Error("the reference work did nothing");
  return (spent.user + spent.system) / 1000;
}

const REFERENCE_OBJECT = {
  apiVersion: "cloud.svc.io/v1alpha1",
  kind: "Deployment",
  metadata: {
    name: "floor-1",
    namespace: "floor",
    resourceVersion: "12345",
    annotations: { href: "/api/deployments/1" },
  },
  status: {
    href: "/api/deployments/1",
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "Available",
        message: "",
        lastTransitionTime: "2026-01-01T00:00:00Z",
      },
    ],
  },
};

const round3 = (x: number) => Number(x.toFixed(3));

/** A record of one value per exchange. */
const byName = <T>(f: (name: Name) => T) =>
  Object.fromEntries(NAMES.map((n) => [n, f(n)])) as Record<Name, T>;

/** REPEATS runs of every exchange, rotated; the median CPU ms per exchange and every run's. */
async function measure(kube: KubeSide, service: ServiceSide, ops: number, width: number) {
  const runs = byName(() => [] as { cpuMs: number; systemShare: number; wallMs: number }[]);
  const reference: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    for (let k = 0; k < NAMES.length; k++) {
      const name = NAMES[(r + k) % NAMES.length]!;
      reference.push(referenceCpuMs());
      runs[name].push(await cpuPerOp(kube, service, name, ops, width));
    }
  }
  const ms = byName((n) => round3(median(runs[n].map((x) => x.cpuMs))));
  return {
    ms,
    runs: byName((n) => runs[n].map((x) => round3(x.cpuMs))),
    systemPct: byName((n) => Math.round(median(runs[n].map((x) => x.systemShare)) * 100)),
    wallMs: byName((n) => round3(median(runs[n].map((x) => x.wallMs)))),
    floor: round3(floorMs(ms)),
    reference: {
      median: round3(median(reference)),
      min: round3(Math.min(...reference)),
      max: round3(Math.max(...reference)),
    },
    // From each exchange's least CPU: contention on a shared machine only ever adds to a run.
    floorOfBestRuns: round3(floorMs(byName((n) => Math.min(...runs[n].map((x) => x.cpuMs))))),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const cpuModel = cpus()[0]?.model ?? "unknown";
  const [kube, service] = await Promise.all([startKubeSide(WIDTH), startServiceSide()]);
  try {
    // Warm: a cold run costs 2-4 times a warm one, until V8 has optimized the code (over ten
    // thousand calls), as it has in an operator at work.
    for (const name of NAMES) await cpuPerOp(kube, service, name, OPS, WIDTH);
    const concurrent = await measure(kube, service, OPS, WIDTH);
    const sequential = await measure(kube, service, SEQUENTIAL_OPS, 1);
    const figures: Record<string, unknown> = { cpuModel, opsPerRun: OPS, repeats: REPEATS, inFlight: WIDTH };
    for (const name of NAMES) {
      figures[`${name}CpuMs`] = concurrent.ms[name];
      figures[`${name}CpuMsRuns`] = concurrent.runs[name];
      figures[`${name}SystemPct`] = concurrent.systemPct[name];
      figures[`${name}SequentialCpuMs`] = sequential.ms[name];
      figures[`${name}SequentialCpuMsRuns`] = sequential.runs[name];
    }
    figures.floorPerCreatedResourceMs = concurrent.floor;
    figures.floorPerCreatedResourceSequentialMs = sequential.floor;
    figures.floorPerCreatedResourceBestRunsMs = concurrent.floorOfBestRuns;
    figures.referenceWorkCpuMs = concurrent.reference;
    figures.goalMsPerReconcile = GOAL_MS_PER_RECONCILE;
    figures.floorOverGoal = round3(concurrent.floor / GOAL_MS_PER_RECONCILE);
    const row = (name: Name) =>
      `  ${name.padEnd(22)} ${concurrent.ms[name].toFixed(3)} ms [${concurrent.runs[name].join(", ")}]` +
      ` (system ${concurrent.systemPct[name]}%, wall ${concurrent.wallMs[name].toFixed(3)} ms)` +
      `   sequential ${sequential.ms[name].toFixed(3)} ms [${sequential.runs[name].join(", ")}]`;
    console.log(
      [
        `CPU per exchange on ${cpuModel} (this process only; ${WIDTH} in flight, median of ${REPEATS} runs of ${OPS}; sequential: runs of ${SEQUENTIAL_OPS}):`,
        ...NAMES.map(row),
        `reference work before each run (the machine's speed): median ${concurrent.reference.median} ms` +
          ` (${concurrent.reference.min} to ${concurrent.reference.max})`,
        `floor per created resource (ms): ${concurrent.floor} (sequential ${sequential.floor}, ` +
          `from each exchange's best run ${concurrent.floorOfBestRuns});` +
          ` goal per reconcile ${GOAL_MS_PER_RECONCILE} ms; CPU ${cpuModel} x ${cpus().length}`,
      ].join("\n"),
    );
    return figures;
  } finally {
    await Promise.all([kube.close(), service.close()]);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run();
}
