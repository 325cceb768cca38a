import type { Action } from "../inventory/index.ts";
import { decideChange, writeOnlyChanges, writeOnlyValues } from "../runtime/reconcile/index.ts";
import type { AnyManagedKind, FieldDiff } from "../runtime/sdk/index.ts";
import { withoutNulls } from "../runtime/sdk/index.ts";

/** What plan says of one manifest. */
export interface Planned {
  kind: string;
  namespace: string;
  name: string;
  /** The file (and document) it came from. */
  source: string;
  action: Action;
  /** The service object it stands for (after an adoption, the one found). */
  href?: string;
  /** The fields the operator would write: the service's value and the desired one. */
  changes: FieldDiff[];
  message?: string;
}

/** A planned manifest, with what its dependents need: what the service shows of its object. */
export interface Result extends Planned {
  atProvider?: Record<string, unknown>;
  /** The spec fields whose values are write-only (masked when shown). */
  writeOnly: string[];
}

/** Actions after which the operator would not go on: the dependents of such a manifest are blocked. */
export const STOPPED = new Set<Action>(["invalid", "blocked", "immutable", "error"]);

/** Actions that change the service (or what the operator manages): exit code 2. */
export const CHANGES = new Set<Action>(["create", "update", "replace", "adopt"]);

/**
 * What converge would do with the existing service object (the reconciler's own decision,
 * decide.ts): nothing, update the fields that differ, replace the object, or stall on an immutable
 * field. ObserveOnly never writes: what differs is said, not planned.
 */
export function converge(
  kind: AnyManagedKind,
  base: Omit<Result, "action" | "changes" | "writeOnly">,
  desired: unknown,
  observed: unknown,
  options: { observeOnly: boolean; applied?: Record<string, unknown> },
): Result {
  const values = writeOnlyValues(kind, desired);
  const writeOnly = Object.keys(values ?? {});
  const atProvider = withoutNulls(kind.atProvider(observed, options.applied));
  const diff = [
    ...kind.diff(desired, observed),
    ...(values ? (writeOnlyChanges(values, options.applied) ?? []) : []),
  ];
  const result = { ...base, atProvider, writeOnly };
  if (options.observeOnly) {
    const differs = diff.map((d) => d.field).join(", ");
    return {
      ...result,
      action: "no change",
      changes: [],
      ...(differs ? { message: `ObserveOnly, never written: the service differs in ${differs}` } : {}),
    };
  }
  const change = decideChange(kind, diff);
  switch (change.type) {
    case "none": {
      const notReady = kind.notReady?.(observed);
      const warnings = kind.warnings?.(desired, observed) ?? [];
      const notes = [...(notReady ? [`not ready yet: ${notReady}`] : []), ...warnings];
      return {
        ...result,
        action: "no change",
        changes: [],
        ...(notes.length > 0 ? { message: notes.join("; ") } : {}),
      };
    }
    case "update":
      return { ...result, action: "update", changes: change.diff };
    case "replace":
      return {
        ...result,
        action: "replace",
        changes: diff,
        message:
          `${change.locked.map((d) => d.field).join(", ")} cannot be updated in place: ` +
          (change.how === "createBeforeDelete"
            ? "a new object is created, then this one deleted"
            : "this object is deleted, then a new one created"),
      };
    case "immutable":
      return { ...result, action: "immutable", changes: change.locked, message: change.error.message };
  }
}
