import { isIP } from "node:net";
import { getDomain } from "tldts";
import { type EndpointAllowlist, normalizeHost } from "./allowlist.ts";
import { ApiError, type ApiErrorCode, ApiErrorCodes } from "./errors.ts";

/**
 * Where a regional redirect may send the client, and with it the credentials.
 *
 * A redirect stays within the endpoint's registrable domain ("eTLD+1"), as the public suffix
 * list (tldts, private suffixes included) decides it: `us-3.example.com` may send the client to
 * `us-4.example.com`, but `a.co.uk` may not send it to `evil.co.uk`, nor `a.github.io` to
 * `b.github.io`. A host with no registrable domain (an IP address, `localhost`, a single label,
 * a public suffix itself) allows only itself. Ports are never compared: the simulator's
 * "wrong region" is another port on 127.0.0.1.
 */
export interface RedirectScope {
  /** The endpoint's host, always allowed. */
  host: string;
  /** The endpoint's registrable domain, or undefined when only `host` is allowed. */
  domain: string | undefined;
  /** Narrows further (`ApiClientOptions.serviceDomain`): each entry matches itself and its subdomains. */
  allowlist: readonly string[] | undefined;
  /** Narrows further still, ports included (`ApiClientOptions.allowedEndpoints`, `--allowed-endpoints`). */
  endpoints?: EndpointAllowlist | undefined;
}

export function redirectScope(
  endpoint: URL,
  allowlist?: readonly string[],
  endpoints?: EndpointAllowlist,
): RedirectScope {
  const host = normalizeHost(endpoint.hostname);
  return { host, domain: registrableDomain(host), allowlist, endpoints };
}

/** The registrable domain of a host, or undefined for an IP address or a host that has none. */
export function registrableDomain(hostname: string): string | undefined {
  const host = normalizeHost(hostname);
  if (isIP(host) !== 0) return undefined;
  return getDomain(host, { allowPrivateDomains: true }) ?? undefined;
}

/** Why a redirect to `hostname` is refused, or undefined when it is allowed. */
export function redirectHostProblem(hostname: string, scope: RedirectScope): string | undefined {
  const host = normalizeHost(hostname);
  if (host !== scope.host) {
    if (scope.domain === undefined)
      return `host ${host}: the endpoint's host ${scope.host} allows only itself`;
    if (registrableDomain(host) !== scope.domain) {
      return `host ${host}, outside the endpoint's registrable domain ${scope.domain}`;
    }
  }
  if (scope.allowlist && !isHostInDomain(host, scope.allowlist)) {
    return `host ${host}, outside the service domain [${scope.allowlist.join(", ")}]`;
  }
  return undefined;
}

/** Whether a host equals an entry, or is a subdomain of one (never for IP addresses). */
export function isHostInDomain(hostname: string, domain: readonly string[]): boolean {
  const host = normalizeHost(hostname);
  return domain.some((entry) => {
    const e = normalizeHost(entry);
    if (host === e) return true;
    return isIP(e) === 0 && isIP(host) === 0 && host.endsWith(`.${e}`);
  });
}

/**
 * The URL a redirect points to, checked against the scope. Refuses foreign hosts,
 * non-http(s) schemes and an https -> http downgrade, naming the host.
 */
export function resolveRedirect(method: string, current: URL, location: string, scope: RedirectScope): URL {
  let target: URL;
  try {
    target = new URL(location, current);
  } catch (cause) {
    throw refused(method, current, `an unreadable Location "${location.slice(0, 200)}"`, cause);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw refused(method, current, `scheme ${target.protocol}`);
  }
  if (current.protocol === "https:" && target.protocol === "http:") {
    throw refused(method, current, `an https -> http downgrade to ${target.host}`);
  }
  const problem = redirectHostProblem(target.hostname, scope);
  if (problem !== undefined) throw refused(method, current, problem);
  const outside = scope.endpoints?.problem(target);
  if (outside !== undefined)
    throw refused(method, current, outside, undefined, ApiErrorCodes.endpointNotAllowed);
  return target;
}

function refused(
  method: string,
  current: URL,
  what: string,
  cause?: unknown,
  code: ApiErrorCode = ApiErrorCodes.redirectRefused,
): ApiError {
  return new ApiError({
    kind: "invalid",
    code,
    method,
    href: current.pathname,
    cause,
    message: `${method} ${current.pathname}: redirect refused: ${what}`,
  });
}
