import { isIPv4, isIPv6 } from "node:net";
import { getDomain } from "tldts";

/**
 * Where the operator may send an Account's credentials at all (`--allowed-endpoints`): anyone who
 * can write an Account picks its endpoint, so an administrator can pin the service's hosts. The
 * endpoint and every host a redirect leads to must match a pattern; the redirect rule (the
 * endpoint's registrable domain, redirect.ts) still applies, so the list only ever narrows.
 *
 * A pattern is a host (`us-3.example-cloud.com`), a wildcard over the subdomains of a domain
 * (`*.example-cloud.com`: `us-3.example-cloud.com`, `a.b.example-cloud.com`, not
 * `example-cloud.com` itself) or an IP address (`127.0.0.1`, `[::1]`), each with an optional
 * `:port` (without one, any port). Hosts are compared without case and without a trailing dot;
 * an endpoint without a port has its scheme's (443, 80).
 */

export const ALLOWED_ENDPOINTS_RULE =
  "must be a comma-separated list of hosts (us-3.example-cloud.com), wildcards over the subdomains " +
  "of a domain (*.example-cloud.com) or IP addresses (127.0.0.1, [::1]), each with an optional " +
  ":port; no scheme, path or user, a wildcard only as the whole first label and never over a " +
  "public suffix (*.com, *.co.uk)";

export interface EndpointPattern {
  /** As written (lowercase), for messages. */
  text: string;
  /** The host, or for a wildcard the domain whose subdomains match (no brackets around IPv6). */
  host: string;
  wildcard: boolean;
  /** Only this port; undefined: any. */
  port: number | undefined;
}

const LABEL = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";
const DNS_NAME = new RegExp(`^${LABEL}(\\.${LABEL})*$`);

export class EndpointAllowlist {
  readonly patterns: readonly EndpointPattern[];

  constructor(patterns: readonly EndpointPattern[]) {
    if (patterns.length === 0) throw new TypeError("an endpoint allowlist needs at least one pattern");
    this.patterns = patterns;
  }

  /** Parses `--allowed-endpoints`; throws a TypeError naming the entry and the rule. */
  static parse(text: string): EndpointAllowlist {
    const entries = text.split(",").map((e) => e.trim());
    return new EndpointAllowlist(entries.map((entry, i) => parsePattern(entry, i)));
  }

  /** Whether calls (and credentials) may go to `url`'s host and port. */
  allows(url: URL): boolean {
    const host = normalizeHost(url.hostname);
    const port = effectivePort(url);
    return this.patterns.some(
      (p) =>
        (p.port === undefined || p.port === port) &&
        (p.wildcard ? host.endsWith(`.${p.host}`) && !isIP(host) : host === p.host),
    );
  }

  /** Why `url` may not be called, naming its host and the list, or undefined when it may. */
  problem(url: URL): string | undefined {
    if (this.allows(url)) return undefined;
    return `host ${url.hostname}:${effectivePort(url)} is outside the operator's --allowed-endpoints (${this})`;
  }

  toString(): string {
    return this.patterns.map((p) => p.text).join(",");
  }
}

function parsePattern(raw: string, index: number): EndpointPattern {
  const entry = raw.toLowerCase();
  const bad = (why: string) =>
    new TypeError(
      `entry ${index + 1} ${raw === "" ? "(empty)" : `"${raw}"`}: ${why}; ${ALLOWED_ENDPOINTS_RULE}`,
    );
  if (entry === "") throw bad("an empty entry");
  if (/[/@?#\s]/.test(entry) || entry.includes("://")) throw bad("not a host");
  let hostPart = entry;
  let port: number | undefined;
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    hostPart = bracketed[1]!;
    if (!isIPv6(hostPart)) throw bad("not an IPv6 address in brackets");
    if (bracketed[2] !== undefined) port = parsePort(bracketed[2], bad);
  } else if (entry.startsWith("[")) {
    throw bad("an IPv6 address must be followed by nothing or :port");
  } else {
    const colons = entry.split(":").length - 1;
    if (colons > 1) throw bad("write an IPv6 address in brackets, [::1]");
    if (colons === 1) {
      const at = entry.lastIndexOf(":");
      hostPart = entry.slice(0, at);
      port = parsePort(entry.slice(at + 1), bad);
    }
  }
  const wildcard = hostPart.startsWith("*.");
  const host = normalizeHost(wildcard ? hostPart.slice(2) : hostPart);
  if (host.includes("*")) throw bad("a wildcard only as the whole first label (*.example-cloud.com)");
  if (isIP(host)) {
    if (wildcard) throw bad("no wildcard over an IP address");
    const canonical = normalizeHost(new URL(`http://${isIPv6(host) ? `[${host}]` : host}`).hostname);
    return { text: entry, host: canonical, wildcard, port };
  }
  if (!DNS_NAME.test(host) || host.length > 253) throw bad("not a host name");
  // `*.co.uk` or `*.github.io` would hand the credentials to anyone who registers a name there.
  if (wildcard && getDomain(host, { allowPrivateDomains: true }) === null)
    throw bad(`a wildcard over the public suffix ${host}`);
  return { text: entry, host, wildcard, port };
}

function parsePort(text: string, bad: (why: string) => TypeError): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) throw bad("a port must be a number from 1 to 65535");
  return port;
}

function isIP(host: string): boolean {
  return isIPv4(host) || isIPv6(host);
}

/** Lowercase, no IPv6 brackets, no trailing dot (the same host). */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

/** The URL's port, or its scheme's default (URL.port is empty for a default port). */
export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}
