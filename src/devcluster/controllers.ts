import { CRD_CLEANUP_FINALIZER, crdStatus } from "./crd.ts";
import { ApiError } from "./errors.ts";
import { deepEqual, finalizersOf, isObj, type Obj } from "./meta.ts";
import { finalizeNamespace } from "./namespace-deletion.ts";
import type { Operations } from "./operations.ts";
import type { ResourceType } from "./types.ts";

const CRD_KEY = "apiextensions.k8s.io/customresourcedefinitions";
const NAMESPACE_KEY = "/namespaces";

/**
 * What kube-controller-manager and the apiextensions controllers do, run right after writes:
 * CRD names/establishing/cleanup, namespace content deletion, and garbage collection of
 * dependents by ownerReferences (background, orphan and foreground).
 */
export class Controllers {
  private ops!: Operations;
  private scheduled = false;
  private running = false;
  private gcPending = false;
  private readonly onError: (error: unknown) => void;

  constructor(options: { onError?: (error: unknown) => void } = {}) {
    this.onError = options.onError ?? (() => {});
  }

  attach(ops: Operations): void {
    this.ops = ops;
  }

  /** The Operations hook: called after every committed write. */
  afterWrite(type: ResourceType, object: Obj, deleted: boolean): void {
    if (type.storageKey === CRD_KEY) {
      const name = String((object.metadata as Obj).name);
      // The write is committed: a controller failure is logged, never turned into the client's error.
      try {
        if (deleted) {
          const served = this.ops.registry.unserveCrd(name);
          if (served) this.ops.store.dropBucket(served.storageKey);
        } else {
          this.ops.registry.serveCrd(object);
          this.syncCrd(type, object);
        }
      } catch (error) {
        this.onError(error);
      }
    }
    const m = object.metadata as Obj;
    if (deleted) this.gcPending = true;
    if (deleted || m.deletionTimestamp || type.storageKey === CRD_KEY) this.schedule();
  }

  /**
   * Names accepted, Established: written to /status as the apiextensions controllers, which run
   * in kube-apiserver, write them (the cleanup finalizer comes with the CRD's deletion).
   */
  private syncCrd(type: ResourceType, crd: Obj): void {
    const others = this.ops.store.list(CRD_KEY);
    const status = crdStatus(crd, others, this.ops.now());
    if (deepEqual(status, crd.status)) return;
    const setStatus = (next: Obj) => {
      next.status = status;
    };
    this.ops.controllerWrite(type, crd, setStatus, "status", "kube-apiserver");
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.run();
    });
  }

  /** One pass over everything that waits on a controller; schedules itself again while work remains. */
  run(): void {
    if (this.running) return;
    this.running = true;
    try {
      this.cleanupCrds();
      this.cleanupNamespaces();
      this.collectGarbage();
    } catch (error) {
      this.onError(error);
    } finally {
      this.running = false;
    }
  }

  private typeOf(key: string): ResourceType | undefined {
    return this.ops.registry.byStorageKey(key);
  }

  private deleteObject(
    type: ResourceType,
    object: Obj,
    propagationPolicy?: "Background" | "Orphan" | "Foreground",
  ): void {
    const m = object.metadata as Obj;
    if (m.deletionTimestamp) return;
    try {
      const options = propagationPolicy ? { propagationPolicy } : {};
      this.ops.delete(
        {
          type,
          version: type.versions[0]!,
          namespace: m.namespace as string | undefined,
          manager: "kube-controller-manager",
        },
        String(m.name),
        options,
      );
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }

  private dropFinalizer(type: ResourceType, object: Obj, finalizer: string): void {
    this.ops.controllerWrite(type, object, (next) => {
      const nm = next.metadata as Obj;
      nm.finalizers = finalizersOf(nm).filter((f) => f !== finalizer);
      if ((nm.finalizers as string[]).length === 0) delete nm.finalizers;
    });
  }

  private cleanupCrds(): void {
    const crdType = this.typeOf(CRD_KEY)!;
    for (const crd of this.ops.store.list(CRD_KEY)) {
      const m = crd.metadata as Obj;
      if (!m.deletionTimestamp || !finalizersOf(m).includes(CRD_CLEANUP_FINALIZER)) continue;
      const served = this.ops.registry.customTypes().find((t) => t.crdName === m.name);
      const instances = served ? this.ops.store.list(served.storageKey) : [];
      for (const instance of instances) this.deleteObject(served!, instance);
      if (instances.length === 0) this.dropFinalizer(crdType, crd, CRD_CLEANUP_FINALIZER);
    }
  }

  private cleanupNamespaces(): void {
    const nsType = this.typeOf(NAMESPACE_KEY)!;
    for (const ns of this.ops.store.list(NAMESPACE_KEY)) {
      if ((ns.metadata as Obj).deletionTimestamp) finalizeNamespace(this.ops, nsType, ns);
    }
  }

  private collectGarbage(): void {
    const uids = new Map<string, Obj>();
    const all: { key: string; object: Obj }[] = [];
    for (const key of this.ops.store.bucketKeys()) {
      for (const object of this.ops.store.list(key)) {
        uids.set(String((object.metadata as Obj).uid), object);
        all.push({ key, object });
      }
    }
    const dependentsOf = (uid: string) =>
      all.filter(({ object }) => refsOf(object).some((r) => r.uid === uid));
    // Owners being deleted with orphan / foreground semantics.
    for (const { key, object } of all) {
      const m = object.metadata as Obj;
      if (!m.deletionTimestamp) continue;
      const type = this.typeOf(key);
      if (!type) continue;
      const finalizers = finalizersOf(m);
      if (finalizers.includes("orphan")) {
        for (const dep of dependentsOf(String(m.uid)))
          this.dropOwnerRefs(dep.key, dep.object, (r) => r.uid === m.uid);
        this.dropFinalizer(
          type,
          this.ops.store.get(key, m.namespace as string | undefined, String(m.name))!,
          "orphan",
        );
      } else if (finalizers.includes("foregroundDeletion")) {
        const deps = dependentsOf(String(m.uid));
        for (const dep of deps) {
          const depType = this.typeOf(dep.key);
          if (depType) this.deleteObject(depType, dep.object, "Foreground");
        }
        if (deps.length === 0) this.dropFinalizer(type, object, "foregroundDeletion");
      }
    }
    if (!this.gcPending) return;
    this.gcPending = false;
    for (const { key, object } of all) {
      const refs = refsOf(object);
      if (refs.length === 0) continue;
      const alive = refs.filter((r) => uids.has(String(r.uid)));
      if (alive.length === refs.length) continue;
      const type = this.typeOf(key);
      if (!type) continue;
      if (alive.length === 0) this.deleteObject(type, object);
      else this.dropOwnerRefs(key, object, (r) => !uids.has(String(r.uid)));
    }
  }

  private dropOwnerRefs(key: string, object: Obj, drop: (ref: Obj) => boolean): void {
    const type = this.typeOf(key);
    const m = object.metadata as Obj;
    const current = this.ops.store.get(key, m.namespace as string | undefined, String(m.name));
    if (!type || !current) return;
    this.ops.controllerWrite(type, current, (next) => {
      const nm = next.metadata as Obj;
      nm.ownerReferences = refsOf(next).filter((r) => !drop(r));
      if ((nm.ownerReferences as Obj[]).length === 0) delete nm.ownerReferences;
    });
  }
}

function refsOf(object: Obj): Obj[] {
  const refs = (object.metadata as Obj).ownerReferences;
  return Array.isArray(refs) ? (refs.filter(isObj) as Obj[]) : [];
}
