import type { ResolvedReference } from "../../runtime/sdk/index.ts";

/**
 * The href an `xRef`/`xHref` pair of a spec names, and the field that named it (so that a
 * difference is reported against what the user wrote); undefined when neither is set (or the
 * reference is not resolved: an after-create association whose target is not usable yet).
 */
export function refOrHref<R extends string, H extends string>(
  ref: { field: R; resolved: ResolvedReference | undefined },
  href: { field: H; value: string | undefined },
): { href: string; field: R | H } | undefined {
  if (ref.resolved) return { href: ref.resolved.href, field: ref.field };
  if (href.value !== undefined) return { href: href.value, field: href.field };
  return undefined;
}
