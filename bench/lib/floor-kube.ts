// The Kubernetes side of the floor bench (bench/floor.ts): a devcluster in a process of its own,
// one Deployment per writer in flight, left as a reconcile leaves it (finalizer, href annotation,
// a Ready status), the operator's own writer (KubeApiWriter over RawKube) and an InformerSet
// watching the kind as the operator's does (KubeWatch, the cache's slimming). Each write the
// operator makes per created resource is here, and a run of them is over once the informer has
// decoded the watch event of every one.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import pino from "pino";
import { parse } from "yaml";
import { InformerSet, KubeApiWriter } from "../../src/runtime/cache/index.ts";
import { type ObjectRef, RawKube } from "../../src/runtime/client/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { Annotation, FINALIZER, GROUP, VERSION } from "../../src/runtime/sdk/index.ts";
import { type Infra, startInfraPart, stopInfra } from "./operator-rig.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const NS = "floor";
const EPOCH = Date.now();
const KIND = { kind: "Deployment", plural: "deployments" };

/** The Kubernetes writes of a created resource, as the operator makes them (docs/operator.md). */
export type KubeWrite = "intentPatch" | "hrefPatch" | "statusWrite" | "auditHrefStatusWrite";

export interface KubeSide {
  /** Write `kind` to object `slot` (one per writer in flight); `i` makes each write a change. */
  write(kind: KubeWrite, slot: number, i: number): Promise<void>;
  /** Update events the informer has handed out so far. */
  readonly events: number;
  /** Resolves once `events` reaches `count`. */
  untilEvents(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A Ready status as a create's reconcile writes it: the href, what the service shows, conditions. */
function readyStatus(i: number): Record<string, unknown> {
  const at = `${new Date().toISOString().slice(0, 19)}Z`;
  return {
    href: `/api/deployments/${i}`,
    observedGeneration: 1,
    atProvider: { name: `floor-${i}`, description: "proof", locked: false, serverTagScope: "deployment" },
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "Available",
        message: "",
        lastTransitionTime: at,
        observedGeneration: 1,
      },
      {
        type: "Synced",
        status: "True",
        reason: "ReconcileSuccess",
        message: "",
        lastTransitionTime: at,
        observedGeneration: 1,
      },
    ],
  };
}

/** The devcluster, `slots` Deployments as reconciled, the writer and a synced informer on the kind. */
export async function startKubeSide(slots: number): Promise<KubeSide> {
  const { child, kubeconfig } = await startInfraPart("cluster", 0);
  const infra = { children: [child] } as Infra;
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig!);
  const setup = new RawKube(kc);
  const writer = new KubeApiWriter(kc);
  const lists = new RawKube(kc);
  let events = 0;
  let waiting: { count: number; resolve: () => void } | undefined;
  const informers = new InformerSet({
    kubeConfig: kc,
    kube: lists,
    kinds: [KIND],
    namespaces: [],
    log: pino({ level: "silent" }),
    handlers: {
      added: () => {},
      deleted: () => {},
      updated: () => {
        events++;
        if (waiting && events >= waiting.count) {
          waiting.resolve();
          waiting = undefined;
        }
      },
    },
  });
  const refs: ObjectRef[] = Array.from({ length: slots }, (_, s) => ({
    ...KIND,
    namespace: NS,
    name: `floor-${s}`,
  }));
  // The version an intent write carries: as the reconcile holds it, the last write's answer, else
  // the cache's (current once a run's events are in).
  const versions = new Map<number, string | undefined>();
  const version = (slot: number) =>
    versions.get(slot) ??
    (informers.get(KIND.kind, NS, refs[slot]!.name) as ManagedObject).metadata.resourceVersion;
  const writes: Record<KubeWrite, (ref: ObjectRef, slot: number, i: number) => Promise<void>> = {
    // The create intent: optimistic (the version read), its answer read into the reconcile. A time
    // of its own per write: a write that changes nothing makes no event.
    intentPatch: async (ref, slot, i) => {
      const pending = new Date(EPOCH + i).toISOString();
      const answer = await writer.patchMetadata(
        ref,
        { annotations: { [Annotation.createPending]: pending } },
        version(slot),
      );
      versions.set(slot, answer.metadata.resourceVersion);
    },
    // The href recorded, create-pending cleared; the answer is not read.
    hrefPatch: (ref, _slot, i) =>
      writer.patchUnread(ref, {
        metadata: {
          annotations: { [Annotation.href]: `/api/deployments/${i}`, [Annotation.createPending]: null },
        },
      }),
    // What the reconcile ends with: the href and Ready.
    statusWrite: (ref, _slot, i) => writer.patchUnread(ref, { status: readyStatus(i) }),
    // The audit trail's, once the entry is made.
    auditHrefStatusWrite: (ref, _slot, i) =>
      writer.patchUnread(ref, { status: { auditEntryHref: `/api/audit_entries/${i}` } }),
  };
  const side: KubeSide = {
    get events() {
      return events;
    },
    untilEvents: (count) =>
      events >= count ? Promise.resolve() : new Promise((resolve) => (waiting = { count, resolve })),
    write: (kind, slot, i) => {
      if (kind !== "intentPatch") versions.delete(slot);
      return writes[kind](refs[slot]!, slot, i);
    },
    close: async () => {
      await informers.stop();
      await Promise.all([writer.close(), lists.close(), setup.close()]);
      await stopInfra(infra);
    },
  };
  try {
    await populate(setup, refs);
    await informers.start();
    // The watch is open once a write's event comes back (a write that changes something: one
    // that does not makes no event).
    await side.write("auditHrefStatusWrite", 0, -1);
    await side.untilEvents(1);
    return side;
  } catch (error) {
    await side.close();
    throw error;
  }
}

/** The CRDs, the namespace, and each Deployment with its finalizer, href and Ready status. */
async function populate(raw: RawKube, refs: ObjectRef[]): Promise<void> {
  for (const file of (await readdir(join(ROOT, "crds"))).filter((f) => f.endsWith(".yaml"))) {
    await raw.call(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      parse(await readFile(join(ROOT, "crds", file), "utf8")),
    );
  }
  await raw.call("POST", "/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: NS },
  });
  const path = `/apis/${GROUP}/${VERSION}/namespaces/${NS}/${KIND.plural}`;
  for (const [i, ref] of refs.entries()) {
    await raw.call("POST", path, {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: KIND.kind,
      metadata: {
        name: ref.name,
        finalizers: [FINALIZER],
        annotations: { [Annotation.href]: `/api/deployments/${i}` },
      },
      spec: { description: "proof" },
    });
    await raw.call(
      "PATCH",
      `${path}/${ref.name}/status`,
      { status: readyStatus(i) },
      "application/merge-patch+json",
    );
  }
}
