import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import { serviceHint } from "./service-hints.ts";

const network = (code: string, message: string) =>
  new ApiError({
    kind: "retryable",
    code: ApiErrorCodes.network,
    method: "POST",
    href: "/api/oauth2/",
    cause: Object.assign(new Error(message), { code }),
    message: `POST /api/oauth2/ failed: ${code} ${message}`,
  });

describe("serviceHint", () => {
  it.each([
    [
      "a refused connection",
      network("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9"),
      "refused",
      false,
      "nothing accepts connections at https://svc.example:9: check spec.endpoint (POST /api/oauth2/ failed: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9)",
    ],
    [
      "a host that does not resolve",
      network("ENOTFOUND", "getaddrinfo ENOTFOUND svc.example"),
      "unresolved",
      false,
      "svc.example:9 does not resolve: check spec.endpoint (and the cluster's DNS)",
    ],
    [
      "a certificate nobody trusts",
      network("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"),
      "tls",
      false,
      "the TLS handshake with https://svc.example:9 failed (DEPTH_ZERO_SELF_SIGNED_CERT): check spec.endpoint; a service behind a private CA needs that CA",
    ],
    [
      "an HTML page instead of the API",
      new ApiError({
        kind: "invalid",
        code: ApiErrorCodes.badResponse,
        method: "POST",
        href: "/api/oauth2/",
      }),
      "not the service",
      false,
      "does not answer as the service API does (a proxy, a captive portal or another server in front of it?): check spec.endpoint",
    ],
    [
      "throttling",
      new ApiError({
        kind: "throttled",
        code: ApiErrorCodes.throttled,
        method: "GET",
        href: "/api/deployments",
        status: 429,
      }),
      "throttled",
      true,
      "the service is throttling the operator (429 Too Many Requests): calls are retried after its Retry-After; if it lasts, lower --api-rate",
    ],
    [
      "an outage",
      new ApiError({ kind: "retryable", code: ApiErrorCodes.server, method: "GET", href: "/x", status: 503 }),
      "server 503",
      true,
      "the service answers 503: retried with backoff",
    ],
    [
      "an endpoint that accepts connections and never answers",
      network("SVC_FIRST_BYTE_TIMEOUT", "no answer within 5000 ms"),
      "no answer",
      true,
      "https://svc.example:9 accepts connections but sent no answer within --api-first-byte-timeout: check spec.endpoint",
    ],
    [
      "a connection reset",
      network("ECONNRESET", "socket hang up"),
      "network ECONNRESET",
      true,
      "https://svc.example:9 did not answer (ECONNRESET)",
    ],
  ])("%s", (_what, error, cause, transient, fragment) => {
    const hint = serviceHint(error, "https://svc.example:9");
    expect(hint).toMatchObject({ cause, transient });
    expect(hint!.message).toContain(fragment);
    expect(hint!.message).toContain(error.message);
  });

  it("has nothing to add to a validation error or to what is not the client's", () => {
    const invalid = new ApiError({
      kind: "invalid",
      code: ApiErrorCodes.invalid,
      method: "POST",
      href: "/x",
      status: 422,
    });
    expect(serviceHint(invalid, undefined)).toBeUndefined();
    expect(serviceHint(new Error("x"), undefined)).toBeUndefined();
  });
});
