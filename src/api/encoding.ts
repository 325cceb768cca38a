import qs from "qs";
import { FormData } from "undici";

/**
 * Request encoding: every body is `application/x-www-form-urlencoded` in bracket
 * notation (`deployment[name]=x`, `inputs[][name]=X`, `a[b][]=1`), the notation the spec's
 * parameter tables are written in and that every real client and the real service
 * accept. Every value goes over the wire as a string (the spec types parameters as
 * String anyway); `undefined` members are left out, `null` is sent as an empty string
 * (a blank value), and empty arrays are left out. Stored script attachments are multipart.
 */
export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

export type Params = Record<string, unknown>;

export function encodeForm(params: Params): string {
  return qs.stringify(params, { arrayFormat: "brackets", strictNullHandling: false });
}

/** One index filter: `field==value` (match) or `field<>value` (no match). */
export interface FilterEntry {
  field: string;
  value: string;
  op?: "==" | "<>";
}

/** Filters as a map (`{name: "web"}` means `name==web`) or a list of entries; ANDed by the service. */
export type Filters = Record<string, string> | FilterEntry[];

export function filterParams(filters: Filters | undefined): string[] | undefined {
  if (filters === undefined) return undefined;
  const entries: FilterEntry[] = Array.isArray(filters)
    ? filters
    : Object.entries(filters).map(([field, value]) => ({ field, value }));
  if (entries.length === 0) return undefined;
  return entries.map((e) => `${e.field}${e.op ?? "=="}${e.value}`);
}

/** `?a=1&filter[]=x==y`, or "" when there is nothing to send. */
export function encodeQuery(query: Params | undefined): string {
  if (!query || !hasDefinedValue(query)) return "";
  const text = qs.stringify(query, { arrayFormat: "brackets" });
  return text ? `?${text}` : "";
}

export interface FilePart {
  content: string | Uint8Array;
  filename: string;
  contentType?: string;
}

/**
 * A multipart body with bracketed field names (`wrapper[member]`), as the service takes
 * file uploads. undici's FormData is re-serialised on each send, so a retried or
 * redirected upload re-sends the whole body.
 */
export function encodeMultipart(
  wrapper: string,
  fields: Record<string, string | FilePart | undefined>,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const key = `${wrapper}[${name}]`;
    if (typeof value === "string") {
      form.append(key, value);
    } else {
      const bytes =
        typeof value.content === "string" ? new TextEncoder().encode(value.content) : value.content;
      const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], {
        type: value.contentType ?? "application/octet-stream",
      });
      form.append(key, blob, value.filename);
    }
  }
  return form;
}

function hasDefinedValue(params: Params): boolean {
  for (const key in params) if (params[key] !== undefined) return true;
  return false;
}
