/**
 * The text of the operator's audit trail (spec 4.14): one detail chunk per reconcile that changed
 * a service object, and the entry's summary. Pure; what is masked is decided here, in one place,
 * so that no secret reaches the service's audit log whatever the kind.
 */
import { isPlainObject } from "../sdk/index.ts";

/** What the operator did to a service object. */
export type AuditAction = "created" | "updated" | "driftCorrected" | "replaced" | "deleted";

/** One field as it was and as it is now (`undefined`: not set). */
export interface FieldChange {
  field: string;
  old?: unknown;
  new?: unknown;
}

export interface AuditChange {
  action: AuditAction;
  /** Href of the service object the change was made to (the entry's auditee). */
  auditee: string;
  fields: FieldChange[];
  /** Milliseconds since the epoch. */
  at: number;
  /** A short remark, e.g. `replaced by /api/networks/7`. */
  note?: string;
  /**
   * The object was gone from the service already (deleted with what held it): the change goes only
   * into an entry it has, since the service takes no new entry for an object that is gone.
   */
  foundGone?: true;
}

/** Who made the changes of one reconcile, and what the kind says must never be shown. */
export interface AuditContext {
  /** The operator's identity (`--identity`, the pod name in a cluster). */
  identity: string;
  kind: string;
  namespace: string;
  name: string;
  reconcileId: string;
  /** Top-level spec fields the kind marks write-only: their values are never written. */
  writeOnly: readonly string[];
}

export const MASK = "***";
/** Spec 8: a summary has 1 to 255 characters. */
export const MAX_SUMMARY = 255;
/** A value longer than this is cut: the detail is for people, and some values are whole documents. */
const MAX_VALUE = 200;
/** Nested objects are listed field by field down to this depth, then shown whole. */
const MAX_DEPTH = 3;

const VERBS: Record<AuditAction, string> = {
  created: "created",
  updated: "updated",
  driftCorrected: "corrected drift of",
  replaced: "replaced",
  deleted: "deleted",
};

/**
 * Field names that hold secrets whatever the kind: a Deployment input named `DB_PASSWORD` given as
 * text, an Account's token or password, a key. Matched against every segment of the path.
 */
const SECRET_NAME = /passw(or)?d|passphrase|secret|token|credential|private.?key|api.?key/i;
/** Input notations (spec 4.13) whose value names a credential or a private key. */
const SECRET_PREFIX = /^(cred|key):/;

/** Spec fields that say how the operator manages the object, not what the object is. */
const NOT_OBJECT_FIELDS = new Set(["accountRef", "deletionPolicy", "managementPolicy"]);

/** A created object's fields, from its validated spec: everything but the management fields. */
export function createdFields(spec: Record<string, unknown>): FieldChange[] {
  return Object.entries(spec)
    .filter(([field, value]) => !NOT_OBJECT_FIELDS.has(field) && value !== undefined)
    .map(([field, value]) => ({ field, new: value }));
}

/** The fields an update applied (the kind's diff: desired is the new value, observed the old one). */
export function changedFields(diff: readonly { field: string; desired: unknown; observed: unknown }[]) {
  return diff.map((d): FieldChange => ({ field: d.field, old: d.observed, new: d.desired }));
}

/**
 * A value with its secrets masked: every value of a write-only field and of a field whose name
 * says secret, and `cred:`/`key:` inputs (also inside an `array:` input). The type prefix of an
 * input stays, so a reader still sees that a credential was set.
 */
export function maskedValue(path: readonly string[], value: unknown, writeOnly: readonly string[]): unknown {
  if (value === undefined || value === null) return value;
  if (writeOnly.includes(path[0] ?? "") || path.some((segment) => SECRET_NAME.test(segment))) return MASK;
  if (typeof value === "string") return maskedString(value);
  if (Array.isArray(value)) return value.map((v) => maskedValue(path, v, writeOnly));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, maskedValue([...path, k], v, writeOnly)]),
    );
  }
  return value;
}

function maskedString(value: string): string {
  const prefix = SECRET_PREFIX.exec(value);
  if (prefix) return `${prefix[1]}:${MASK}`;
  if (value.startsWith("array:") && /(cred|key):/.test(value)) return `array:${MASK}`;
  return value;
}

/** A value as one line of the detail shows it: JSON (strings quoted, newlines escaped), cut when long. */
export function shownValue(path: readonly string[], value: unknown, writeOnly: readonly string[]): string {
  const masked = maskedValue(path, value, writeOnly);
  if (masked === undefined || masked === null) return "(none)";
  if (masked === MASK) return MASK;
  return clip(JSON.stringify(masked));
}

function clip(text: string): string {
  const chars = [...text];
  if (chars.length <= MAX_VALUE) return text;
  return `${chars.slice(0, MAX_VALUE).join("")}... (${chars.length - MAX_VALUE} more characters)`;
}

/**
 * One line per leaf that changed, nested objects (a Deployment's inputs) field by field: `field:
 * value` for a created object, `field: old -> new` otherwise.
 */
export function fieldLines(change: FieldChange, writeOnly: readonly string[], withOld: boolean): string[] {
  const lines: string[] = [];
  const walk = (path: string[], old: unknown, now: unknown, depth: number) => {
    const nested = (isPlainObject(old) || old === undefined) && (isPlainObject(now) || now === undefined);
    if (nested && depth < MAX_DEPTH && (old !== undefined || now !== undefined)) {
      const o = (old ?? {}) as Record<string, unknown>;
      const n = (now ?? {}) as Record<string, unknown>;
      for (const key of [...new Set([...Object.keys(o), ...Object.keys(n)])].sort()) {
        if (old === undefined || now === undefined || JSON.stringify(o[key]) !== JSON.stringify(n[key]))
          walk([...path, key], o[key], n[key], depth + 1);
      }
      return;
    }
    const shown = shownValue(path, now, writeOnly);
    const before = withOld ? `${shownValue(path, old, writeOnly)} -> ` : "";
    lines.push(`  ${path.join(".")}: ${before}${shown}`);
  };
  walk([change.field], change.old, change.new, 0);
  return lines;
}

/**
 * The detail chunk of one reconcile's changes to one service object: per change a line saying
 * when, who, what and to which resource (with the reconcile id, to find the operator's log
 * lines), then one line per field changed. Ends with a newline, so chunks join into lines.
 */
export function detailText(context: AuditContext, changes: readonly AuditChange[]): string {
  const out: string[] = [];
  const resource = `${context.kind} ${context.namespace}/${context.name}`;
  for (const change of changes) {
    const note = change.note ? ` (${change.note})` : "";
    out.push(
      `${new Date(change.at).toISOString()} ${context.identity} ${VERBS[change.action]} ${resource}${note}; ` +
        `reconcile ${context.reconcileId}`,
    );
    for (const field of change.fields)
      out.push(...fieldLines(field, context.writeOnly, change.action !== "created"));
  }
  // Joined with its last newline, one flat string: a queued task keeps it (a concatenation is two).
  out.push("");
  return out.join("\n");
}

/**
 * The entry's summary: the latest change, in at most 255 characters (code points, as the service
 * counts them). The first change of a reconcile that created the object leads (a create and the
 * update that sets what a create cannot are one change to a reader).
 */
export function summaryText(context: AuditContext, changes: readonly AuditChange[]): string {
  const resource = `${context.kind} ${context.namespace}/${context.name}`;
  const [first, ...rest] = changes;
  const fields = (c: AuditChange) =>
    c.action === "created" || c.action === "deleted" ? "" : c.fields.map((f) => f.field).join(", ");
  const lead = first ? `${VERBS[first.action]} ${resource}${fields(first) ? `: ${fields(first)}` : ""}` : "";
  const then = rest.map((c) => `, then ${VERBS[c.action]}${fields(c) ? ` ${fields(c)}` : ""}`).join("");
  const chars = [...`svc-operator ${lead || `changed ${resource}`}${then}`];
  return chars.length <= MAX_SUMMARY ? chars.join("") : `${chars.slice(0, MAX_SUMMARY - 3).join("")}...`;
}
