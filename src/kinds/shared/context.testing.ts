import pino from "pino";
import type { DesiredContext, ResolvedReference } from "../../runtime/sdk/index.ts";
import { NameLookup } from "../../runtime/sdk/index.ts";

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

/**
 * For the kinds' unit tests: a fake resource of a service client over `items` (representations),
 * recording in `calls` each index (its scope and filter), create (its scope and parameters),
 * update and destroy; a create answers `created`. Scoped calls (`index(cloud, options)`) and
 * account-wide ones (`index(options)`) both work: a leading string is the scope.
 */
export function fakeResource(
  items: { links: { rel: string; href?: string | null }[] }[],
  calls: string[],
  created: string,
) {
  const split = (args: unknown[]) => {
    const scope = typeof args[0] === "string" ? [args[0]] : [];
    return { scope, rest: args.slice(scope.length)[0] as Record<string, unknown> | undefined };
  };
  return {
    show: async (href: string) => items.find((i) => i.links[0]!.href === href),
    index: async (...args: unknown[]) => {
      const { scope, rest } = split(args);
      calls.push(["index", ...scope, JSON.stringify(rest?.filter ?? {})].join(" "));
      return items;
    },
    create: async (...args: unknown[]) => {
      const { scope, rest } = split(args);
      calls.push(["create", ...scope, JSON.stringify(rest)].join(" "));
      return created;
    },
    update: async (href: string, params: object) =>
      void calls.push(`update ${href} ${JSON.stringify(params)}`),
    destroy: async (href: string) => void calls.push(`destroy ${href}`),
  };
}
