import { isIPv4 } from "node:net";

/**
 * Where an Account's credentials may be sent: over https to any host, over plain http only
 * to the machine itself (the playground and the tests run the simulator on loopback). No
 * option turns this off: credentials in clear text to a remote host are never right.
 */

export const ENDPOINT_RULE =
  "must be an https URL; http is allowed only for a loopback host (127.0.0.0/8, ::1, localhost)";

/**
 * The same rule in CEL, for the CRD: the apiserver refuses the object before any reconcile.
 * A regex on the text, stricter than the URL parse (e.g. `http://127.1` is refused here).
 */
export const ENDPOINT_CEL_RULE =
  "self.startsWith('https://') || self.matches('^http://(localhost|127\\\\.[0-9]{1,3}\\\\.[0-9]{1,3}\\\\.[0-9]{1,3}|\\\\[::1\\\\])(:[0-9]{1,5})?(/.*)?$')";

/** `localhost`, an IPv4 address in 127.0.0.0/8 or `::1` (as URL.hostname writes them). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  return isIPv4(host) && host.startsWith("127.");
}

/** Why an endpoint cannot be used, or undefined when it can. */
export function endpointProblem(endpoint: string): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `${ENDPOINT_RULE}, got "${endpoint}"`;
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return undefined;
  return `${ENDPOINT_RULE}, got "${endpoint}"`;
}
