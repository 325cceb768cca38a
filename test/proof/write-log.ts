// The devcluster's writes as benches and proof tests count them (its `onWrite` hook): the
// operator's Kubernetes writes per resource, and when each resource was first stored Ready.
import { managedKinds } from "../../src/kinds/index.ts";
import { GROUP } from "../../src/runtime/names.ts";

const KIND_BY_STORAGE = new Map(managedKinds.map((k) => [`${GROUP}/${k.plural}`, k.kind]));

type Status = { auditEntryHref?: string; [k: string]: unknown } | undefined;

/** The audit trail's write: status.auditEntryHref set, the rest of status as it was. */
function isAuditWrite(object: Record<string, unknown>, old: Record<string, unknown>): boolean {
  const now = object.status as Status;
  const before = old.status as Status;
  if (now?.auditEntryHref === undefined || now.auditEntryHref === before?.auditEntryHref) return false;
  const { auditEntryHref: _a, ...rest } = now;
  const { auditEntryHref: _b, ...restBefore } = before ?? {};
  return JSON.stringify(rest) === JSON.stringify(restBefore);
}

/**
 * The devcluster's writes, from its `onWrite` hook: counted per kind of object while `counting`,
 * and when each managed resource was first stored Ready=True (wall clock, ms).
 */
export class WriteLog {
  counting = false;
  /** Writes to managed custom resources and Events while counting. */
  resourceWrites = 0;
  eventWrites = 0;
  /** Of resourceWrites, those the audit trail makes (status.auditEntryHref, nothing else of status). */
  auditWrites = 0;
  private readonly readyAt = new Map<string, number>();

  onWrite = (
    key: string,
    type: string,
    object: Record<string, unknown>,
    old?: Record<string, unknown>,
  ): void => {
    const kind = KIND_BY_STORAGE.get(key);
    if (this.counting) {
      if (kind) this.resourceWrites++;
      else if (key === "events") this.eventWrites++;
      if (kind && old && isAuditWrite(object, old)) this.auditWrites++;
    }
    if (!kind || type === "DELETED") return;
    const meta = object.metadata as { namespace: string; name: string };
    const id = `${kind}/${meta.namespace}/${meta.name}`;
    if (this.readyAt.has(id)) return;
    const conditions = (object.status as { conditions?: { type: string; status: string }[] } | undefined)
      ?.conditions;
    if (conditions?.some((c) => c.type === "Ready" && c.status === "True"))
      this.readyAt.set(id, performance.timeOrigin + performance.now());
  };

  ready(kind: string, ns: string, name: string): number | undefined {
    return this.readyAt.get(`${kind}/${ns}/${name}`);
  }

  reset(): void {
    this.resourceWrites = 0;
    this.eventWrites = 0;
    this.auditWrites = 0;
  }
}
