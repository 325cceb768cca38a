import { crdSources } from "../kinds/index.ts";
import { GROUP } from "../runtime/sdk/index.ts";

/** A kubectl-style error: printed as is, exit code 1. */
export class TraceError extends Error {
  override name = "TraceError";
}

export interface KindInfo {
  kind: string;
  plural: string;
}

/** Every kind the operator serves (Account and the managed kinds), as the apiserver names them. */
export const servedKinds = (): KindInfo[] => crdSources().map((s) => ({ kind: s.kind, plural: s.plural }));

/**
 * The kind a user typed, the ways kubectl takes it: the kind, its plural, singular or short name,
 * any case, with or without `.cloud.svc.io`.
 */
export function resolveKind(typed: string): KindInfo {
  const name = typed.toLowerCase().replace(new RegExp(`\\.${GROUP.replace(/\./g, "\\.")}$`), "");
  const found = crdSources().find((s) =>
    [s.kind.toLowerCase(), s.plural, s.singular, ...(s.shortNames ?? [])].includes(name),
  );
  if (!found) throw new TraceError(`error: the server doesn't have a resource type "${typed}"`);
  return { kind: found.kind, plural: found.plural };
}

/** `KIND/NAME` or `KIND NAME`, as kubectl takes one resource. */
export function parseTarget(args: readonly string[]): { kind: KindInfo; name: string } {
  const [first, second] = args;
  const usage = "error: you must specify one resource as KIND/NAME (or KIND NAME), such as route/web";
  if (first === undefined || args.length > 2) throw new TraceError(usage);
  const slash = first.indexOf("/");
  if (slash === -1 ? second === undefined : second !== undefined) throw new TraceError(usage);
  const kind = slash === -1 ? first : first.slice(0, slash);
  const name = slash === -1 ? second! : first.slice(slash + 1);
  if (!kind || !name || name.includes("/")) throw new TraceError(usage);
  return { kind: resolveKind(kind), name };
}
