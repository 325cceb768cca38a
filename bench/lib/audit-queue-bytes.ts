// What one queued audit task holds: the heap after a full collection, before and after a converge's
// worth of creates is queued (no call goes through), per task. The resources are held beforehand
// as the informer cache holds them (name, namespace, uid, Account): a task's share of those is not
// its own. What each batch is made of is as a reconcile makes it: a ref, a context and changes of
// its own, and the href of the created object as the service's answer gave it (a copy of its own).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import pino from "pino";
import {
  type AuditBatch,
  AuditTrail,
  detailText,
  summaryText,
  TASK_BYTES,
} from "../../src/runtime/audit/index.ts";
import type { KubeWriter, ObjectStore } from "../../src/runtime/client/index.ts";

export interface QueuedTaskBytes {
  tasks: number;
  /** Heap bytes per queued task, measured. */
  measured: number;
  /** Of which its two texts (summary and detail), as the queue's accounting counts them. */
  texts: number;
  /** What the queue's accounting counts per task (TASK_BYTES and its texts). */
  accounted: number;
}

/** The collector, callable without `--expose-gc` on the command line (a vitest worker, a bench run). */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

const NS = "bench-audit";

/** A resource as the informer cache holds it: what a batch's strings may share. */
interface Cached {
  name: string;
  uid: string;
}

function cached(i: number): Cached {
  return { name: `network-${i}`, uid: crypto.randomUUID() };
}

/** The batch a reconcile that created the resource's service object hands over. */
function createBatch(resource: Cached, i: number, client: unknown): AuditBatch {
  const { name, uid } = resource;
  return {
    context: { kind: "Network", namespace: NS, name, reconcileId: crypto.randomUUID(), writeOnly: [] },
    ref: { kind: "Network", plural: "networks", namespace: NS, name },
    uid,
    accountName: "default",
    client,
    known: undefined,
    changes: [
      {
        action: "created",
        // A copy of its own, as parsed from the service's answer.
        auditee: JSON.parse(JSON.stringify(`/api/networks/${100_000 + i}`)) as string,
        at: Date.now(),
        fields: [
          { field: "cidrBlock", new: "10.0.0.0/16" },
          { field: "description", new: "bench network" },
        ],
      },
    ],
  };
}

/** Bytes per task of `count` creates queued behind calls that never end. */
export function queuedTaskBytes(count: number): QueuedTaskBytes {
  const gc = collector();
  const store = { get: () => undefined } as unknown as ObjectStore;
  const trail = new AuditTrail({
    identity: "svc-operator-7d9f8b6c5d-x2x4q",
    store,
    kube: {} as KubeWriter,
    log: pino({ level: "silent" }),
    calls: { create: () => new Promise(() => {}), append: () => new Promise(() => {}) },
    // Reconciles running: a call or two in flight, the rest queued.
    busy: () => true,
    maxQueuedBytes: Number.MAX_SAFE_INTEGER,
  });
  const client = {};
  const resources = Array.from({ length: count }, (_, i) => cached(i));
  let texts = 0;
  for (let i = 0; i < 100; i++) {
    // Warm up: the trail's maps and V8's code for its calls exist before the heap is read.
    trail.submit(createBatch(cached(count + i), count + i, client));
  }
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) {
    const batch = createBatch(resources[i]!, i, client);
    const context = { ...batch.context, identity: "svc-operator-7d9f8b6c5d-x2x4q" };
    texts += summaryText(context, batch.changes).length + detailText(context, batch.changes).length;
    trail.submit(batch);
  }
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  // Both held until here: the trail's queue is what was measured, the resources were there before.
  if (resources.length !== count || trail === undefined) throw new Error("unreachable");
  return {
    tasks: count,
    measured: Math.round((after - before) / count),
    texts: Math.round(texts / count),
    accounted: Math.round(TASK_BYTES + texts / count),
  };
}
