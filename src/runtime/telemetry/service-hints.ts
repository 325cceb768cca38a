import { ApiErrorCodes, isApiError } from "../../api/index.ts";

/**
 * A service failure that says what to do. The service client's errors name the call and the
 * network's words (`POST /api/oauth2/ failed: ECONNREFUSED ...`); a person reading an Account's
 * condition wants the cause first, and the field to change.
 */
export interface ServiceHint {
  /** The condition message: the cause, the fix, then the client's own words. */
  message: string;
  /**
   * What the failure is about, the same for every call it breaks (`refused`, `throttled`): resources
   * that fail of one cause under one Account are one line in the log, not one each.
   */
  cause: string;
  /** Transient: it goes away without a change to any spec (throttling, an outage). */
  transient: boolean;
}

const TLS = /CERT|SSL|TLS|^EPROTO$|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/** The first string `code` down the cause chain (undici nests the socket's error). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = (error as { cause?: unknown })?.cause;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(endpoint: string | undefined): string | undefined {
  try {
    return endpoint ? new URL(endpoint).host : undefined;
  } catch {
    return undefined;
  }
}

/** Explains a service failure for a condition (serviceHint); injected, as the service client is a kind's. */
export type ExplainServiceError = (error: unknown, endpoint: string | undefined) => ServiceHint | undefined;

/** The hint for a service client error, or undefined when its own words are the best there is. */
export function serviceHint(error: unknown, endpoint: string | undefined): ServiceHint | undefined {
  if (!isApiError(error)) return undefined;
  const at = endpoint ?? "the endpoint";
  const host = hostOf(endpoint) ?? "the endpoint's host";
  const said = error.message;
  const hint = (cause: string, transient: boolean, what: string): ServiceHint => ({
    cause,
    transient,
    message: `${what} (${said})`,
  });
  switch (error.code) {
    case ApiErrorCodes.network: {
      const code = networkCode(error) ?? "";
      if (code === "ECONNREFUSED")
        return hint("refused", false, `nothing accepts connections at ${at}: check spec.endpoint`);
      if (code === "ENOTFOUND" || code === "EAI_AGAIN")
        return hint(
          "unresolved",
          false,
          `${host} does not resolve: check spec.endpoint (and the cluster's DNS)`,
        );
      if (code === "SVC_FIRST_BYTE_TIMEOUT")
        return hint(
          "no answer",
          true,
          `${at} accepts connections but sent no answer within --api-first-byte-timeout: check spec.endpoint is the service's host and the network to it (a proxy or firewall that holds connections)`,
        );
      if (TLS.test(code))
        return hint(
          "tls",
          false,
          `the TLS handshake with ${at} failed (${code}): check spec.endpoint; a service behind a private CA needs that CA in the operator's trust store (NODE_EXTRA_CA_CERTS)`,
        );
      return hint(
        `network ${code}`,
        true,
        `${at} did not answer (${code || "network error"}): check spec.endpoint and the network to it (egress rules, proxies)`,
      );
    }
    case ApiErrorCodes.badResponse:
      return hint(
        "not the service",
        false,
        `${at} does not answer as the service API does (a proxy, a captive portal or another server in front of it?): check spec.endpoint`,
      );
    case ApiErrorCodes.throttled:
      return hint(
        "throttled",
        true,
        "the service is throttling the operator (429 Too Many Requests): calls are retried after its Retry-After; if it lasts, lower --api-rate",
      );
    case ApiErrorCodes.server:
      return hint(
        `server ${error.status ?? ""}`.trim(),
        true,
        `the service answers ${error.status ?? "5xx"}: retried with backoff; if it lasts, check the service's status`,
      );
    default:
      return undefined;
  }
}
