/**
 * The one error type the service client throws. Reconcilers branch on `kind`
 * (what to do about it) and log `code` (a stable string, as undici does).
 */

/** What the caller should do about a failure. */
export type ApiErrorKind =
  | "notFound" // the object does not exist (404, or 422 ResourceNotFound)
  | "invalid" // terminal: the request must change before it can succeed
  | "conflict" // the request is valid but the service's current state refuses it (422, 409)
  | "unauthorized" // bad credentials, a missing role or setting (401, 403)
  | "throttled" // 429: slow down
  | "retryable" // 5xx or a network failure: try again later
  | "outcomeUnknown"; // a create whose answer was lost: look the object up before creating again

/** Stable machine-readable codes; several codes may share a kind. */
export const ApiErrorCodes = {
  notFound: "SVC_NOT_FOUND",
  invalid: "SVC_INVALID",
  conflict: "SVC_CONFLICT",
  unauthorized: "SVC_UNAUTHORIZED",
  throttled: "SVC_THROTTLED",
  server: "SVC_SERVER_ERROR",
  network: "SVC_NETWORK_ERROR",
  outcomeUnknown: "SVC_OUTCOME_UNKNOWN",
  redirectRefused: "SVC_REDIRECT_REFUSED",
  /** An endpoint or redirect target outside `allowedEndpoints` (--allowed-endpoints): nothing was sent there. */
  endpointNotAllowed: "SVC_ENDPOINT_NOT_ALLOWED",
  badResponse: "SVC_BAD_RESPONSE",
  responseTooLarge: "SVC_RESPONSE_TOO_LARGE",
} as const;

export type ApiErrorCode = (typeof ApiErrorCodes)[keyof typeof ApiErrorCodes];

export interface ApiErrorInit {
  kind: ApiErrorKind;
  code: ApiErrorCode;
  method: string;
  href: string;
  status?: number;
  errorType?: string;
  serviceMessage?: string;
  /** `[field, message]` pairs from a JSON validation body (e.g. a duplicate name). */
  fieldErrors?: Array<[string, string]>;
  attempts?: number;
  cause?: unknown;
  /** Overrides the generated message. */
  message?: string;
}

export class ApiError extends Error {
  override name = "ApiError";
  readonly kind: ApiErrorKind;
  readonly code: ApiErrorCode;
  readonly method: string;
  readonly href: string;
  readonly status: number | undefined;
  readonly errorType: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly fieldErrors: Array<[string, string]> | undefined;
  /** HTTP attempts made for the call (1 when it was not retried). */
  attempts: number;

  constructor(init: ApiErrorInit) {
    super(init.message ?? describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.method = init.method;
    this.href = init.href;
    this.status = init.status;
    this.errorType = init.errorType;
    this.serviceMessage = init.serviceMessage;
    this.fieldErrors = init.fieldErrors;
    this.attempts = init.attempts ?? 1;
  }

  /** True when waiting and calling again may succeed without changing the request. */
  get transient(): boolean {
    return this.kind === "retryable" || this.kind === "throttled";
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function describe(init: ApiErrorInit): string {
  const status = init.status === undefined ? "" : ` -> ${init.status}`;
  const what = init.errorType
    ? `${init.errorType}: ${init.serviceMessage ?? ""}`
    : (init.serviceMessage ?? "");
  const cause = init.cause instanceof Error && !what ? init.cause.message : "";
  return `${init.method} ${init.href}${status}${what || cause ? ` ${what || cause}` : ""}`.trim();
}

/**
 * An answer only a change of the request can turn (a 422 validation or not-found error, a 409
 * conflict): retrying it is useless, so the resource that sent it is Stalled until its spec changes.
 */
export function isTerminalApiError(error: unknown): boolean {
  return (
    isApiError(error) &&
    (error.kind === "invalid" ||
      error.kind === "conflict" ||
      (error.kind === "notFound" && error.status === 422))
  );
}

/** A write whose answer was lost: the object may or may not exist (a create is looked up, never resent). */
export function isOutcomeUnknown(error: unknown): boolean {
  return isApiError(error) && error.kind === "outcomeUnknown";
}

export interface ParsedErrorBody {
  errorType?: string;
  message: string;
  fieldErrors?: Array<[string, string]>;
}

const MAX_MESSAGE = 500;
/** What is scrubbed of an error body before it is clipped: far past anything a message keeps. */
const MAX_SCRUBBED = 16_384;

/** Removes credentials from text taken from an answer (the client's Redactor); none by default. */
export type Scrub = (text: string) => string;
const keep: Scrub = (text) => text;
// `ResourceNotFound: Couldn't find Cloud with ID=0` (type names may be namespaced with `::`).
const TYPED_MESSAGE = /^([A-Z][A-Za-z0-9_]*(?:::[A-Z][A-Za-z0-9_]*)*): ?([\s\S]*)$/;

/**
 * Parses the service's error bodies: `<ErrorType>: <message>`, a JSON array of pairs, or plain
 * text. `scrub` runs before the message is clipped, so that no part of a credential cut at the
 * clip survives.
 */
export function parseErrorBody(body: string, scrub: Scrub = keep): ParsedErrorBody {
  const text = body.trim();
  const typed = TYPED_MESSAGE.exec(text);
  if (typed) return { errorType: typed[1], message: clip(typed[2]!.trim(), scrub) };
  if (text.startsWith("[")) {
    const parsed = parsePairs(text);
    if (parsed) {
      const pairs = parsed.map(([f, m]): [string, string] => [scrub(f), scrub(m)]);
      return { message: clip(pairs.map(([f, m]) => `${f}: ${m}`).join("; "), scrub), fieldErrors: pairs };
    }
  }
  return { message: clip(text, scrub) };
}

function parsePairs(text: string): Array<[string, string]> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    const pairs: Array<[string, string]> = [];
    for (const item of value) {
      if (!Array.isArray(item) || item.length < 2) return undefined;
      pairs.push([String(item[0]), String(item[1])]);
    }
    return pairs;
  } catch {
    return undefined;
  }
}

function clip(text: string, scrub: Scrub): string {
  const clean = scrub(text.slice(0, MAX_SCRUBBED));
  return clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE)}...` : clean;
}

/** Kind and code of an HTTP error answer. */
export function classifyStatus(
  status: number,
  errorType: string | undefined,
): { kind: ApiErrorKind; code: ApiErrorCode } {
  if (status === 404 || (status === 422 && errorType === "ResourceNotFound")) {
    return { kind: "notFound", code: ApiErrorCodes.notFound };
  }
  if (status === 401 || status === 403) return { kind: "unauthorized", code: ApiErrorCodes.unauthorized };
  if (status === 429) return { kind: "throttled", code: ApiErrorCodes.throttled };
  if (status === 409 || status === 422) return { kind: "conflict", code: ApiErrorCodes.conflict };
  if (status >= 500 && status !== 501 && status !== 505) {
    return { kind: "retryable", code: ApiErrorCodes.server };
  }
  return { kind: "invalid", code: ApiErrorCodes.invalid };
}

export function errorFromResponse(
  method: string,
  href: string,
  status: number,
  body: string,
  scrub: Scrub = keep,
): ApiError {
  const parsed = parseErrorBody(body, scrub);
  const { kind, code } = classifyStatus(status, parsed.errorType);
  return new ApiError({
    kind,
    code,
    method,
    href,
    status,
    errorType: parsed.errorType,
    serviceMessage: parsed.message || undefined,
    fieldErrors: parsed.fieldErrors,
  });
}

/** Network error codes that prove the request never reached the service. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** True when a transport failure happened before the request could be delivered. */
export function wasNeverSent(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

export function networkError(method: string, href: string, cause: unknown): ApiError {
  const code = cause instanceof Error ? ((cause as { code?: unknown }).code ?? cause.name) : "unknown";
  return new ApiError({
    kind: "retryable",
    code: ApiErrorCodes.network,
    method,
    href,
    cause,
    message: `${method} ${href} failed: ${String(code)} ${cause instanceof Error ? cause.message : String(cause)}`,
  });
}

/**
 * An answer longer than the client reads. Terminal (`invalid`): the same call gets the same answer,
 * so retrying soon only downloads the limit again; a larger limit or a smaller collection helps.
 */
export function responseTooLargeError(
  method: string,
  href: string,
  origin: string,
  cause: { status: number; limitBytes: number; declaredBytes: number | undefined },
): ApiError {
  const size =
    cause.declaredBytes === undefined
      ? `more than ${formatBytes(cause.limitBytes)} arrived`
      : `Content-Length ${cause.declaredBytes} bytes`;
  return new ApiError({
    kind: "invalid",
    code: ApiErrorCodes.responseTooLarge,
    method,
    href,
    status: cause.status,
    cause,
    message:
      `${method} ${href} at ${origin}: the answer is larger than the ${formatBytes(cause.limitBytes)} limit ` +
      `(${size}; raise it with --api-max-response-bytes if the answer is legitimate)`,
  });
}

/** `64 MiB` for whole mebibytes, `1536 KiB`, otherwise bytes. */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** A create whose answer never arrived (or arrived as a 5xx): the object may or may not exist. */
export function outcomeUnknownError(method: string, href: string, cause: unknown, status?: number): ApiError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ApiError({
    kind: "outcomeUnknown",
    code: ApiErrorCodes.outcomeUnknown,
    method,
    href,
    status,
    cause,
    message: `${method} ${href}: outcome unknown (${why}); look the object up before creating it again`,
  });
}
