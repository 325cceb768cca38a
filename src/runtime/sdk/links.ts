import type { Link } from "./kind.ts";

/**
 * The links of the spec fields named that are set: an href string gives one link, a list of hrefs
 * one per item (`field[i]`). For a kind's `links` hook: `links: (spec) => hrefLinks(spec, [...])`.
 */
export function hrefLinks<S extends object>(spec: S, fields: readonly (keyof S & string)[]): Link[] {
  const out: Link[] = [];
  for (const field of fields) {
    const value: unknown = spec[field];
    if (typeof value === "string" && value !== "") out.push({ field, href: value });
    else if (Array.isArray(value))
      value.forEach((href, i) => {
        if (typeof href === "string" && href !== "") out.push({ field: `${field}[${i}]`, href });
      });
  }
  return out;
}
