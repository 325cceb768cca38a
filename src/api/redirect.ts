import { isIP } from "node:net";
import { ApiError, ApiErrorCodes } from "./errors.ts";

/**
 * Where a regional redirect may send the client (and with it the credentials).
 *
 * The service domain is a list of entries; an entry matches a host equal to it or a
 * subdomain of it (`example.com` matches `us-4.example.com`). IP addresses and
 * single-label hosts (`localhost`) match only themselves. Ports are never compared:
 * the simulator's "wrong region" is another port on 127.0.0.1.
 *
 * Default: derived from the endpoint host. A host with three or more labels allows its
 * parent domain (`us-3.example.com` -> `example.com` and every host under it, since
 * regional hosts are siblings); a two-label host allows itself and its subdomains; an
 * IP address or `localhost` allows only itself.
 */
export function defaultServiceDomain(endpoint: URL): string[] {
  const host = normalizeHost(endpoint.hostname);
  if (isIP(host) !== 0 || !host.includes(".")) return [host];
  const labels = host.split(".");
  return [labels.length >= 3 ? labels.slice(1).join(".") : host];
}

export function isHostInDomain(hostname: string, domain: readonly string[]): boolean {
  const host = normalizeHost(hostname);
  return domain.some((entry) => {
    const e = normalizeHost(entry);
    if (host === e) return true;
    return isIP(e) === 0 && isIP(host) === 0 && host.endsWith(`.${e}`);
  });
}

function normalizeHost(host: string): string {
  // URL.hostname keeps IPv6 brackets and a trailing dot is the same host.
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

/**
 * The URL a redirect points to, checked against the service domain. Refuses foreign
 * hosts, non-http(s) schemes and an https -> http downgrade, naming the host.
 */
export function resolveRedirect(
  method: string,
  current: URL,
  location: string,
  domain: readonly string[],
): URL {
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
  if (!isHostInDomain(target.hostname, domain)) {
    throw refused(
      method,
      current,
      `host ${target.hostname}, outside the service domain [${domain.join(", ")}]`,
    );
  }
  return target;
}

function refused(method: string, current: URL, what: string, cause?: unknown): ApiError {
  return new ApiError({
    kind: "invalid",
    code: ApiErrorCodes.redirectRefused,
    method,
    href: current.pathname,
    cause,
    message: `${method} ${current.pathname}: redirect refused: ${what}`,
  });
}
