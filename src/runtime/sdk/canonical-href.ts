/**
 * The one spelling of a service href the operator accepts. An href is an identity: the one-owner
 * rule compares hrefs as strings, so a second spelling of the same object (`/api/deployments/3/`,
 * `/api/resource_groups/%31`, `1.json`, `1?x=1`) would let a resource in one namespace claim what
 * a resource in another already manages. Other spellings are refused, never normalised: a guess
 * at what the service would make of them is exactly what an attacker would aim at.
 *
 * Ids stay opaque (spec 2.1, item 6: `id;suffix`), so the rules say what an href never holds, not
 * what an id looks like: a query, a fragment, percent-encoding, an empty, `.` or `..` segment, a
 * trailing slash, a format suffix (`.json`, `.xml`: a final `.` and letters, which the service
 * takes as a format, not as part of the id). What passes is then held against the service's
 * `self` link when the object is read (`selfLinkMismatch`): that link is the identity.
 */

/** The characters of a path segment: RFC 3986's unreserved characters and `;:@,=` (no `%`). */
const SEGMENT_CHARS = "A-Za-z0-9._~;:@,=-";

/**
 * What a CRD schema pattern can say (RE2, no lookahead): `/api/` and non-empty segments of those
 * characters. `hrefProblem` says the rest.
 */
export const HREF_PATTERN = `^/api(/[${SEGMENT_CHARS}]+)+$`;

/** Longer than any href the service makes, short enough to bound what a claim holds. */
export const MAX_HREF_LENGTH = 1024;

const SEGMENT = new RegExp(`^[${SEGMENT_CHARS}]+$`);
/** Nearly every href: ids of letters, digits, `_` and `-` only. Canonical at one test (checked per informer event). */
const PLAIN = /^\/api(?:\/[A-Za-z0-9_-]+)+$/;
const FORMAT_SUFFIX = /\.[A-Za-z]+$/;

/** Why `text` is not an href in canonical form, or undefined when it is one. */
export function hrefProblem(text: string): string | undefined {
  if (text.length <= MAX_HREF_LENGTH && PLAIN.test(text)) return undefined;
  if (text.length > MAX_HREF_LENGTH) return `is longer than ${MAX_HREF_LENGTH} characters`;
  if (!text.startsWith("/api/")) return "must start with /api/";
  if (text.includes("?")) return "must not hold a query (?...)";
  if (text.includes("#")) return "must not hold a fragment (#...)";
  if (text.includes("%")) return "must not be percent-encoded (write each character as the service shows it)";
  if (text.endsWith("/")) return "must not end with a slash";
  const segments = text.slice(1).split("/");
  for (const segment of segments) {
    if (segment === "") return "must not hold an empty segment (//)";
    if (segment === "." || segment === "..") return "must not hold a . or .. segment";
    if (!SEGMENT.test(segment)) return "must hold only letters, digits and . _ ~ ; : @ , = - in each segment";
  }
  if (FORMAT_SUFFIX.test(segments[segments.length - 1]!))
    return "must not end with a format suffix such as .json or .xml";
  return undefined;
}

/** Whether `text` is an href in canonical form. */
export function isCanonicalHref(text: unknown): text is string {
  return typeof text === "string" && hrefProblem(text) === undefined;
}

/**
 * Why the object the service showed at `href` is not the one `href` names: its self link is
 * another. Undefined when they are the same.
 */
export function selfLinkMismatch(href: string, self: string | undefined): string | undefined {
  if (self === undefined || self === href) return undefined;
  return `the service shows ${href} as ${self}: that is its href`;
}
