/**
 * What went wrong with a call to the apiserver, in words a person can act on. The errors arrive in
 * three shapes (client-node's ApiException with its headers and escaped body, the Watch's bare
 * `Error(statusText)` with a `statusCode`, RawKube's KubeHttpError) or as a network failure deep
 * in a `cause` chain; all of them become one small record, and the record one line.
 */

/** Bounded: these are the values of the `reason` label of svc_operator_informer_errors_total. */
export const KUBE_FAILURE_REASONS = [
  "forbidden",
  "unauthorized",
  "notFound",
  "unreachable",
  "tls",
  "timeout",
  "throttled",
  "serverError",
  "other",
] as const;

export type KubeFailureReason = (typeof KUBE_FAILURE_REASONS)[number];

export interface KubeFailure {
  reason: KubeFailureReason;
  /** HTTP status, when the apiserver answered. */
  status?: number;
  /** The apiserver's Status message, or the network error's own: one line, clipped. */
  detail: string;
  /** The network or TLS error code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, ...). */
  code?: string;
  /** The reasons of the Status's `details.causes`, when it has any (`NamespaceTerminating`). */
  causes?: string[];
}

/** One apiserver call as RBAC names it: verb, resource (`accounts.cloud.svc.io`, `deployments.cloud.svc.io/status`). */
export interface KubeCall {
  verb: string;
  resource: string;
  namespace?: string;
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
const TIMEOUT = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const TLS = /CERT|SSL|TLS|^EPROTO$|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

const DETAIL_CHARS = 300;
const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > DETAIL_CHARS ? `${flat.slice(0, DETAIL_CHARS)}...` : flat;
};

/** The failure an error stands for; never throws, whatever it is given. */
export function kubeFailureOf(error: unknown): KubeFailure {
  const status = statusOf(error);
  if (status !== undefined) {
    const answer = apiserverStatus(error);
    const failure: KubeFailure = {
      reason: reasonOfStatus(status),
      status,
      detail: oneLine(answer.message ?? ""),
    };
    if (answer.causes.length > 0) failure.causes = answer.causes;
    return failure;
  }
  const network = networkCause(error);
  if (network) {
    const reason = TLS.test(network.code)
      ? "tls"
      : TIMEOUT.has(network.code)
        ? "timeout"
        : UNREACHABLE.has(network.code)
          ? "unreachable"
          : "other";
    return { reason, code: network.code, detail: oneLine(network.message) };
  }
  if (error instanceof Error && error.name === "TimeoutError")
    return { reason: "timeout", detail: "timed out" };
  return { reason: "other", detail: oneLine(error instanceof Error ? error.message : String(error)) };
}

function reasonOfStatus(status: number): KubeFailureReason {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "notFound";
  if (status === 429) return "throttled";
  if (status === 504) return "timeout";
  if (status >= 500) return "serverError";
  return "other";
}

/** The HTTP status of an apiserver error, whichever client raised it. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as { code?: unknown; statusCode?: unknown; response?: { statusCode?: unknown } };
  for (const v of [e.code, e.statusCode, e.response?.statusCode])
    if (typeof v === "number" && v >= 100 && v < 600) return v;
  return undefined;
}

/** Causes read from one Status: a few are enough to tell one refusal from another. */
const MAX_CAUSES = 10;

/** The reasons of a Status object's `details.causes`; none for anything else. */
export function statusCauses(status: unknown): string[] {
  const causes = (status as { details?: { causes?: unknown } } | null)?.details?.causes;
  if (!Array.isArray(causes)) return [];
  return causes
    .slice(0, MAX_CAUSES)
    .map((c) => (c as { reason?: unknown } | null)?.reason)
    .filter((r): r is string => typeof r === "string")
    .map((r) => r.slice(0, 100));
}

/**
 * The Status the apiserver sent, its message and its causes: RawKube's errors keep them;
 * client-node's ApiException carries the body as a string (or parsed); the Watch keeps only the
 * status text.
 */
function apiserverStatus(error: unknown): { message?: string; causes: string[] } {
  const e = error as { statusMessage?: unknown; causes?: unknown; body?: unknown; message?: unknown };
  if (typeof e.statusMessage === "string")
    return { message: e.statusMessage, causes: Array.isArray(e.causes) ? [...e.causes] : [] };
  let body = e.body;
  if (typeof body === "string") {
    const text = body;
    try {
      body = JSON.parse(text);
    } catch {
      return { message: text.slice(0, DETAIL_CHARS), causes: [] };
    }
  }
  if (body && typeof body === "object" && typeof (body as { message?: unknown }).message === "string")
    return { message: (body as { message: string }).message, causes: statusCauses(body) };
  // The Watch's `new Error(statusText)`; an ApiException's own message holds the headers: never that.
  if (!("body" in (e as object)) && typeof e.message === "string") return { message: e.message, causes: [] };
  return { causes: [] };
}

/**
 * A create refused because its namespace is being deleted: kube-apiserver's NamespaceLifecycle
 * admission answers 403 Forbidden with the cause `NamespaceTerminating`, where RBAC's 403 has no
 * cause. Nothing to fix: the namespace takes nothing new until it is gone.
 */
export function isNamespaceTerminating(failure: KubeFailure): boolean {
  return failure.status === 403 && (failure.causes ?? []).includes("NamespaceTerminating");
}

/** The first error of the cause chain with a string code (undici nests the socket's error). */
function networkCause(error: unknown): { code: string; message: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "ERR_INVALID_ARG_TYPE")
      return { code, message: current.message };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether the failure comes from the environment (RBAC, a CRD, credentials, the network), not from one object. */
export function isEnvironmental(failure: KubeFailure, call: Pick<KubeCall, "verb">): boolean {
  if (failure.reason === "other") return false;
  // One namespace on its way out, not the operator's RBAC: no cause to report until it clears.
  if (isNamespaceTerminating(failure)) return false;
  // A 404 of one object is the object gone; of a whole collection, a CRD not installed.
  if (failure.reason === "notFound") return call.verb === "list" || call.verb === "watch";
  return true;
}

const STATUS_TEXT: Record<number, string> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * One readable line: the call, what the apiserver (or the network) said, and what to do.
 * `server` is the apiserver's address as the kubeconfig names it.
 */
export function describeKubeFailure(call: KubeCall, failure: KubeFailure, server: string): string {
  const where = call.namespace ? ` in namespace ${call.namespace}` : "";
  const answer =
    failure.status !== undefined
      ? `${failure.status} ${STATUS_TEXT[failure.status] ?? ""}`.trim()
      : (failure.code ?? "error");
  const said =
    failure.detail && failure.detail !== STATUS_TEXT[failure.status ?? 0] ? `: ${failure.detail}` : "";
  return `cannot ${call.verb} ${call.resource}${where} (${answer}${said}); ${fixFor(call, failure, server)}`;
}

function fixFor(call: KubeCall, failure: KubeFailure, server: string): string {
  switch (failure.reason) {
    case "forbidden": {
      if (isNamespaceTerminating(failure))
        return `namespace ${call.namespace ?? ""} is being deleted (kube-apiserver creates nothing new in a terminating namespace): nothing to fix`;
      const user = /User "([^"]+)"/.exec(failure.detail)?.[1];
      const who =
        user === undefined || user.startsWith("system:serviceaccount:")
          ? "the operator's ServiceAccount"
          : `the operator's user ${user}`;
      return `${who} lacks \`${call.verb}\` on ${call.resource}: apply deploy/operator/rbac.yaml`;
    }
    case "unauthorized":
      return (
        "the apiserver refuses the operator's credentials: renew the token or client certificate of the " +
        "kubeconfig (--kubeconfig), or in a pod the ServiceAccount token; a token file or exec plugin " +
        "that renews it is picked up without a restart"
      );
    case "notFound":
      return call.resource.endsWith(".cloud.svc.io")
        ? `the CRD ${call.resource} is not installed: apply crds/ (kubectl apply -f crds/)`
        : `the apiserver at ${server} does not serve ${call.resource}`;
    case "unreachable":
      return `cannot reach the apiserver at ${server}: check the server address of the kubeconfig (--kubeconfig) and the network to it`;
    case "tls":
      return `TLS with the apiserver at ${server} failed: check the kubeconfig's certificate-authority and the server name`;
    case "timeout":
      return `the apiserver at ${server} did not answer in time: check its health and the network to it`;
    case "throttled":
      return "the apiserver is throttling the operator: it retries with backoff; check the apiserver's API priority and fairness";
    case "serverError":
      return `the apiserver at ${server} is failing: check its health; the operator retries with backoff`;
    default:
      return "the operator retries with backoff";
  }
}

/** RBAC's verb for an HTTP method on a path (one object, or a collection). */
export function verbOf(method: string, hasName: boolean): string {
  switch (method.toUpperCase()) {
    case "GET":
      return hasName ? "get" : "list";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return hasName ? "delete" : "deletecollection";
    default:
      return method.toLowerCase();
  }
}

/**
 * The call a request path stands for: `/apis/cloud.svc.io/v1alpha1/namespaces/a/deployments/web/status`
 * is `patch deployments.cloud.svc.io/status in namespace a` (for PATCH).
 */
export function callOf(method: string, path: string): KubeCall {
  const parts = (path.split("?")[0] ?? "").split("/").filter(Boolean);
  let group = "";
  let rest: string[];
  if (parts[0] === "api") rest = parts.slice(2);
  else {
    group = parts[1] ?? "";
    rest = parts.slice(3);
  }
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length >= 3) {
    namespace = decodeURIComponent(rest[1]!);
    rest = rest.slice(2);
  }
  const [plural = "", name, sub] = rest;
  const resource = `${plural}${group ? `.${group}` : ""}${sub ? `/${sub}` : ""}`;
  return { verb: verbOf(method, name !== undefined), resource, ...(namespace ? { namespace } : {}) };
}

/** What a failed call is, for a ProblemLog: `list accounts.cloud.svc.io in namespace a`. */
export function subjectOf(call: KubeCall): string {
  return `${call.verb} ${call.resource}${call.namespace ? ` in namespace ${call.namespace}` : ""}`;
}

/**
 * A failed apiserver call as a ProblemLog trouble. Causes group what one fix mends: every call the
 * network or the credentials break is one cause, RBAC one per verb (a role missing a verb misses it
 * for every resource), missing CRDs one.
 */
export function kubeTrouble(
  call: KubeCall,
  error: unknown,
  server: string,
  fields: Record<string, unknown> = {},
) {
  const failure = kubeFailureOf(error);
  const { reason } = failure;
  const cause =
    reason === "forbidden"
      ? `apiserver forbidden ${call.verb}`
      : reason === "notFound"
        ? "apiserver notFound"
        : reason === "other"
          ? `apiserver other ${subjectOf(call)}`
          : `apiserver ${reason}`;
  return {
    failure,
    trouble: {
      cause,
      subject: subjectOf(call),
      message: describeKubeFailure(call, failure, server),
      fields: {
        verb: call.verb,
        resource: call.resource,
        ...(call.namespace ? { namespace: call.namespace } : {}),
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        ...(failure.code !== undefined ? { code: failure.code } : {}),
        reason,
        ...fields,
      },
    },
  };
}
