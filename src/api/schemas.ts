import * as z from "zod";

/**
 * Building blocks of the representation schemas. Every object schema is loose
 * (unknown fields pass through, so a newer service does not break the client), and
 * hrefs are plain strings: opaque (spec 2.1.6), never parsed or rebuilt.
 */

export const linkSchema = z.looseObject({ rel: z.string(), href: z.string().nullish() });
export const actionSchema = z.looseObject({ rel: z.string() });
export const linksSchema = z.array(linkSchema);
export const actionsSchema = z.array(actionSchema);

/** `YYYY/MM/DD HH:MM:SS +ZZZZ`, kept as the service's text; see `parseTimestamp`. */
export const timestampSchema = z
  .string()
  .regex(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/, "timestamp must be YYYY/MM/DD HH:MM:SS +ZZZZ");

export type Link = z.infer<typeof linkSchema>;

/** Anything with links: every representation of the service. */
export interface Linked {
  links: Link[];
}

/** The href of a `rel`, or undefined. */
export function linkHref(representation: Linked, rel: string): string | undefined {
  return representation.links.find((l) => l.rel === rel)?.href ?? undefined;
}

/** The object's own href (rel `self`); every representation has one. */
export function selfHref(representation: Linked): string {
  const href = linkHref(representation, "self");
  if (href === undefined) throw new TypeError("representation has no self link");
  return href;
}

/** Milliseconds since the epoch of a service timestamp, or null when it is null or malformed. */
export function parseTimestamp(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offset = (Number(oh) * 60 + Number(om)) * 60_000 * (sign === "+" ? 1 : -1);
  return utc - offset;
}
