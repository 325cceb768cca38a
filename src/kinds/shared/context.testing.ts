import pino from "pino";
import type { DesiredContext, ResolvedReference } from "../../runtime/kind.ts";
import { NameLookup } from "../../runtime/lookup.ts";

/** For the kinds' unit tests: the context `desired` gets, for object `name` of namespace `ns`. Test support only. */
export function desiredContext<C>(
  client: C,
  name: string,
  refs: Record<string, ResolvedReference> = {},
): DesiredContext<C> {
  return {
    meta: { name, namespace: "ns" },
    client,
    refs,
    log: pino({ level: "silent" }),
    names: new NameLookup(),
    account: "ns/default",
  };
}
