import { compareHrefs, type Item } from "../inventory/index.ts";

/** Longest name written: a DNS-1123 label, so it also fits where a label is required. */
const MAX = 63;

/** Text as a DNS-1123 label: lowercase letters, digits and single dashes, alphanumeric at both ends. */
export function dnsLabel(text: string, max = MAX): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.slice(0, max).replace(/-+$/, "");
}

/** The last segment of an href (`/api/networks/17` -> `17`), as a label. */
function idOf(href: string): string {
  return dnsLabel(href.split("/").filter(Boolean).pop() ?? "") || "x";
}

/** Joins a base and a suffix within MAX characters, shortening the base. */
function suffixed(base: string, suffix: string): string {
  return `${base.slice(0, MAX - suffix.length - 1).replace(/-+$/, "")}-${suffix}`;
}

/**
 * Manifest names for one kind's objects, by href: the service name as a DNS-1123 label (or
 * `<singular>-<id>` for objects without one). Objects are taken in href order; one whose name is
 * taken gets its id appended, then a counter. The same objects always get the same names, so a
 * second export writes the same files; an object keeps its name as long as no object older than it
 * (a lower href) takes its name.
 */
export function manifestNames(singular: string, items: readonly Item[]): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const item of [...items].sort((a, b) => compareHrefs(a.href, b.href))) {
    const name = typeof item.at.name === "string" ? dnsLabel(item.at.name) : "";
    const base = name || suffixed(singular, idOf(item.href));
    let candidate = base;
    if (taken.has(candidate)) candidate = suffixed(base, idOf(item.href));
    for (let n = 2; taken.has(candidate); n++) candidate = suffixed(base, `${idOf(item.href)}-${n}`);
    taken.add(candidate);
    out.set(item.href, candidate);
  }
  return out;
}
