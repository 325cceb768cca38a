import pino from "pino";
import { isApiError, isTerminalApiError } from "../api/index.ts";
import type {
  AnyManagedKind,
  NameLookup,
  ObjectMeta,
  Reference,
  ResolvedReference,
} from "../runtime/sdk/index.ts";
import { outcomeOf, parseSpec, Reason } from "../runtime/sdk/index.ts";
import { admitObject } from "./admission.ts";

/** What plan says the operator would do with a manifest. */
export type Action =
  | "create"
  | "update"
  | "replace"
  | "immutable"
  | "adopt"
  | "no change"
  | "blocked"
  | "invalid"
  | "error";

/** A manifest the operator could not get further with: plan's answer, and why. */
export interface Stop {
  action: Action;
  message: string;
}

/** An error that is plan's own answer (a reference to an object this plan creates, say). */
export class PlanStop extends Error {
  readonly action: Action;
  constructor(action: Action, message: string) {
    super(message);
    this.action = action;
  }
}

/** Where the operator's outcome of an error puts a manifest: invalid, blocked, or an error of this run. */
export function stopFor(error: unknown): Stop {
  if (error instanceof PlanStop) return { action: error.action, message: error.message };
  // Refused credentials fail every manifest alike: the run stops, saying so once (exit code 1).
  if (isApiError(error) && error.kind === "unauthorized" && error.status === 401) throw error;
  const outcome = outcomeOf(error, isTerminalApiError);
  const message = "message" in outcome ? outcome.message : String(error);
  switch (outcome.type) {
    case "terminal":
      // InvalidSpec is the manifest's; a refusal of a read is this run's; the rest (a reference
      // cycle, an ambiguous lookup, another owner) stall the operator until something changes.
      if (outcome.reason === Reason.InvalidSpec) return { action: "invalid", message };
      if (outcome.reason === Reason.ImmutableField) return { action: "immutable", message };
      return { action: outcome.reason === Reason.ApiError ? "error" : "blocked", message };
    case "waiting":
    case "progressing":
      return { action: "blocked", message };
    default:
      return { action: "error", message };
  }
}

/** A manifest as admission and the kind's schema take it. */
export type Admitted =
  | { ok: true; spec: Record<string, unknown>; meta: ObjectMeta; references: Reference[] }
  | ({ ok: false } & Stop);

/**
 * The manifest as the operator's first phases take it: admission with the CRD's schema and CEL
 * rules (what `kubectl apply` would be refused; `old`, the object in the cluster, for the
 * transition rules), then the kind's zod schema and `validate` (Stalled InvalidSpec).
 */
export function admitManifest(
  kind: AnyManagedKind,
  object: Record<string, unknown>,
  old?: Record<string, unknown>,
): Admitted {
  const admitted = admitObject(kind, object, old);
  if (admitted.problems.length > 0)
    return { ok: false, action: "invalid", message: admitted.problems.join("; ") };
  const meta = admitted.object.metadata as ObjectMeta;
  try {
    const spec = parseSpec(kind.schema, admitted.object.spec) as Record<string, unknown>;
    kind.validate?.(spec, meta);
    return { ok: true, spec, meta, references: kind.references(spec) };
  } catch (error) {
    return { ok: false, ...stopFor(error) };
  }
}

export interface DesiredInput {
  kind: AnyManagedKind;
  spec: Record<string, unknown>;
  meta: ObjectMeta;
  refs: Record<string, ResolvedReference>;
  client: unknown;
  names: NameLookup;
  /** The values of the keys the spec reads (ManagedKind.keySources); absent when not read (ObserveOnly). */
  sources?: Record<string, Buffer>;
}

const silent = pino({ level: "silent" });

/** The kind's desired state, with the context the reconciler gives it (names cached per account). */
export async function desiredOf(
  input: DesiredInput,
): Promise<{ ok: true; desired: unknown } | ({ ok: false } & Stop)> {
  const accountName = (input.spec.accountRef as { name: string }).name;
  try {
    const desired = await input.kind.desired(input.spec, {
      meta: input.meta,
      client: input.client,
      refs: input.refs,
      log: silent,
      account: `${input.meta.namespace}/${accountName}`,
      names: input.names,
      ...(input.sources ? { sources: input.sources } : {}),
    });
    return { ok: true, desired };
  } catch (error) {
    return { ok: false, ...stopFor(error) };
  }
}
