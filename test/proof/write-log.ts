// The devcluster's writes as benches and proof tests count them (its `onWrite` hook): the
// operator's Kubernetes writes per resource, when each resource was first stored Ready, and when
// its create intent (the create-pending annotation, written right before the create call) was.
import { managedKinds } from "../../src/kinds/index.ts";
import { Annotation, GROUP } from "../../src/runtime/sdk/index.ts";

const KIND_BY_STORAGE = new Map(managedKinds.map((k) => [`${GROUP}/${k.plural}`, k.kind]));
const ACCOUNTS = `${GROUP}/accounts`;

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

const MAX_EVENTS_KEPT = 20;

/** An Event as one line: `Reason Kind/namespace/name: message`. */
function eventLine(event: Record<string, unknown>): string {
  const e = event as {
    reason?: string;
    message?: string;
    involvedObject?: { kind?: string; namespace?: string; name?: string };
  };
  const o = e.involvedObject ?? {};
  return `${e.reason} ${o.kind}/${o.namespace}/${o.name}: ${e.message}`;
}

/**
 * The devcluster's writes, from its `onWrite` hook: counted per kind of object while `counting`,
 * when each managed resource was first stored Ready=True and when it first carried the
 * create-pending annotation (wall clock, ms).
 */
export class WriteLog {
  counting = false;
  /** Writes to managed custom resources and Events while counting. */
  resourceWrites = 0;
  eventWrites = 0;
  /** Writes to Accounts (not in resourceWrites: they are not the set's resources). */
  accountWrites = 0;
  /** Of resourceWrites, those the audit trail makes (status.auditEntryHref, nothing else of status). */
  auditWrites = 0;
  /** The first Events written while counting (reason, object, message): what a count of them was. */
  readonly events: string[] = [];
  private readonly readyAt = new Map<string, number>();
  private readonly intentAt = new Map<string, number>();

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
      else if (key === ACCOUNTS) this.accountWrites++;
      if (key === "events" && this.events.length < MAX_EVENTS_KEPT) this.events.push(eventLine(object));
      if (kind && old && isAuditWrite(object, old)) this.auditWrites++;
    }
    if (!kind || type === "DELETED") return;
    const meta = object.metadata as { namespace: string; name: string };
    const id = `${kind}/${meta.namespace}/${meta.name}`;
    const now = performance.timeOrigin + performance.now();
    const annotations = (object.metadata as { annotations?: Record<string, string> }).annotations;
    if (annotations?.[Annotation.createPending] !== undefined && !this.intentAt.has(id))
      this.intentAt.set(id, now);
    if (this.readyAt.has(id)) return;
    const conditions = (object.status as { conditions?: { type: string; status: string }[] } | undefined)
      ?.conditions;
    if (conditions?.some((c) => c.type === "Ready" && c.status === "True")) this.readyAt.set(id, now);
  };

  ready(kind: string, ns: string, name: string): number | undefined {
    return this.readyAt.get(`${kind}/${ns}/${name}`);
  }

  /** When the operator first wrote its intent to create the resource's service object. */
  intent(kind: string, ns: string, name: string): number | undefined {
    return this.intentAt.get(`${kind}/${ns}/${name}`);
  }

  reset(): void {
    this.resourceWrites = 0;
    this.eventWrites = 0;
    this.auditWrites = 0;
    this.accountWrites = 0;
    this.events.length = 0;
  }
}
