import { XMLBuilder } from "fast-xml-parser";

/** `{rel, href}` entries of a representation's `links`. */
export interface Link {
  rel: string;
  href: string;
}

/** `{rel}` entries of a representation's `actions`. */
export interface Action {
  rel: string;
}

export type Format = "json" | "xml";

/** A JSON-shaped representation (what a resource file builds for one object). */
export type Representation = Record<string, unknown>;

export function link(rel: string, href: string): Link {
  return { rel, href };
}

export function actions(...rels: string[]): Action[] {
  return rels.map((rel) => ({ rel }));
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYY/MM/DD HH:MM:SS +0000` (real clients parse this strictly), always UTC. */
export function formatTimestamp(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`
  );
}

/** Parses `YYYY/MM/DD HH:MM:SS [+-]ZZZZ`; null when malformed. */
export function parseTimestamp(text: string): number | null {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offset = (Number(oh) * 60 + Number(om)) * 60_000 * (sign === "+" ? 1 : -1);
  const result = utc - offset;
  return Number.isNaN(result) ? null : result;
}

/** `application/vnd.svc.<type>+json` (or `+xml`), `;type=collection` for collections. */
export function mediaType(type: string, format: Format, collection: boolean): string {
  return `application/vnd.svc.${type}+${format}${collection ? ";type=collection" : ""};charset=utf-8`;
}

// Element names of array members in XML: `<links><link .../></links>`.
const SINGULAR: Record<string, string> = {
  links: "link",
  actions: "action",
  inputs: "input",
  capabilities: "capability",
  variables_data: "variable_data",
  points: "point",
  instance_tags: "instance_tag",
  allowed_instance_hrefs: "allowed_instance_href",
};

export function singular(plural: string): string {
  if (Object.hasOwn(SINGULAR, plural)) return SINGULAR[plural]!;
  if (plural.endsWith("ies")) return `${plural.slice(0, -3)}y`;
  if (plural.endsWith("sses") || plural.endsWith("xes")) return plural.slice(0, -2);
  if (plural.endsWith("s")) return plural.slice(0, -1);
  return `${plural}_item`;
}

// links and actions are flat and render as attributes (`<link rel="self" href="..."/>`),
// as the real service's XML does; everything else renders as child elements.
const ATTRIBUTE_ARRAYS = new Set(["links", "actions"]);

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  suppressEmptyNode: true,
  processEntities: true,
});

function toXmlNode(value: unknown, key: string): unknown {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) {
    const child = singular(key);
    const asAttributes = ATTRIBUTE_ARRAYS.has(key);
    return {
      [child]: value.map((item) =>
        asAttributes && typeof item === "object" && item !== null
          ? Object.fromEntries(Object.entries(item).map(([k, v]) => [`@_${k}`, v === null ? "" : String(v)]))
          : toXmlNode(item, child),
      ),
    };
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toXmlNode(v, k);
    return out;
  }
  return String(value);
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** One object: root element = the singular type name. */
export function renderOne(type: string, representation: Representation, format: Format): string {
  if (format === "json") return JSON.stringify(representation);
  return XML_DECLARATION + builder.build({ [type]: toXmlNode(representation, type) });
}

/** A collection: root element = the plural, one singular element per member. */
export function renderMany(type: string, plural: string, list: Representation[], format: Format): string {
  if (format === "json") return JSON.stringify(list);
  const inner = list.length === 0 ? "" : { [type]: list.map((r) => toXmlNode(r, type)) };
  return XML_DECLARATION + builder.build({ [plural]: inner });
}
