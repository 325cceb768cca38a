/**
 * Errors answered as metav1.Status objects, worded as the real kube-apiserver words them
 * (k8s.io/apimachinery/pkg/api/errors), because clients match on reason, code and details.
 */
export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusBody {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, unknown>;
  status: "Failure" | "Success";
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** What an error is about: a resource (plural) in a group, and an object name. */
export interface Target {
  group: string;
  resource: string;
  name?: string;
}

export class ApiError extends Error {
  override name = "ApiError";
  readonly status: StatusBody;
  /** Sent as text/plain instead of the Status (see plainNotFound). */
  plainText?: string;
  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      code,
    };
    // Some of the real server's 500s carry no reason at all.
    if (!reason) delete this.status.reason;
    if (details) this.status.details = details;
  }
  get code(): number {
    return this.status.code;
  }
}

/** `widgets.example.com` or `configmaps` for the core group. */
export function qualifiedResource(target: Target): string {
  return target.group ? `${target.resource}.${target.group}` : target.resource;
}

/** StatusDetails as Go's JSON writes it: an empty name is left out (`omitempty`), not sent as "". */
function details(target: Target, name = target.name ?? ""): StatusDetails {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (target.group) d.group = target.group;
  d.kind = target.resource;
  return d;
}

export function notFound(target: Target, name = target.name ?? ""): ApiError {
  return new ApiError(
    404,
    "NotFound",
    `${qualifiedResource(target)} "${name}" not found`,
    details(target, name),
  );
}

export function alreadyExists(target: Target, name: string): ApiError {
  return new ApiError(
    409,
    "AlreadyExists",
    `${qualifiedResource(target)} "${name}" already exists`,
    details(target, name),
  );
}

export function conflict(target: Target, name: string, why: string): ApiError {
  return new ApiError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualifiedResource(target)} "${name}": ${why}`,
    details(target, name),
  );
}

export const STALE_OBJECT =
  "the object has been modified; please apply your changes to the latest version and try again";

/** A field error as apimachinery's field.Error prints it. */
export interface FieldError {
  type: "FieldValueInvalid" | "FieldValueRequired" | "FieldValueForbidden" | "FieldValueNotSupported";
  field: string;
  detail: string;
  value?: unknown;
}

/** A value a message prints as Go's `%#v` does, given as that text (`[]string{"x"}`, `0x0`). */
export class GoLiteral {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function goQuote(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || value === undefined) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function fieldCause(error: FieldError): StatusCause {
  let message: string;
  switch (error.type) {
    case "FieldValueRequired":
      message = `Required value${error.detail ? `: ${error.detail}` : ""}`;
      break;
    case "FieldValueForbidden":
      message = `Forbidden${error.detail ? `: ${error.detail}` : ""}`;
      break;
    case "FieldValueNotSupported":
      message = `Unsupported value: ${goQuote(error.value)}${error.detail ? `: ${error.detail}` : ""}`;
      break;
    default:
      message = `Invalid value: ${goQuote(error.value)}${error.detail ? `: ${error.detail}` : ""}`;
  }
  return { reason: error.type, message, field: error.field };
}

/**
 * 422 Invalid: `<Kind> "<name>" is invalid: <field>: <message>`; several causes go in brackets.
 * `kind` is the Kind for core objects and `Kind.group` for others, as the real server says it.
 */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): ApiError {
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  // The message names each distinct error once (field.ErrorList.ToAggregate); the causes keep all.
  const parts = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)))];
  const list = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  // An options object (CreateOptions, PatchOptions) has no name, and no empty one is sent.
  const d: StatusDetails = name ? { name } : {};
  if (group) d.group = group;
  d.kind = kind;
  d.causes = causes;
  return new ApiError(422, "Invalid", `${qualifiedKind} "${name}" is invalid: ${list}`, d);
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, "BadRequest", message);
}

export function methodNotAllowed(): ApiError {
  return new ApiError(
    405,
    "MethodNotAllowed",
    "the server does not allow this method on the requested resource",
    {},
  );
}

export function unauthorized(): ApiError {
  return new ApiError(401, "Unauthorized", "Unauthorized");
}

export function forbidden(target: Target, name: string, why: string): ApiError {
  const qr = qualifiedResource(target);
  const subject = name === "" ? qr : `${qr} "${name}"`;
  return new ApiError(403, "Forbidden", `${subject} is forbidden: ${why}`, details(target, name));
}

/** A create in a namespace being deleted, refused as the NamespaceLifecycle admission plugin does. */
export function namespaceTerminating(target: Target, name: string, namespace: string): ApiError {
  const error = forbidden(
    target,
    name,
    `unable to create new content in namespace ${namespace} because it is being terminated`,
  );
  error.status.details!.causes = [
    {
      reason: "NamespaceTerminating",
      message: `namespace ${namespace} is being terminated`,
      field: "metadata.namespace",
    },
  ];
  return error;
}

export function unsupportedMediaType(accepted: string[]): ApiError {
  return new ApiError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

export function gone(message: string): ApiError {
  return new ApiError(410, "Expired", message);
}

/**
 * The 404 of a path no API group serves (an unknown group, or a CRD group's unknown version or
 * resource): the real server's mux answers it in plain text, not as a Status.
 */
export function plainNotFound(): ApiError {
  const error = new ApiError(404, "NotFound", "404 page not found");
  error.plainText = "404 page not found\n";
  return error;
}

export function pageNotFound(): ApiError {
  return new ApiError(404, "NotFound", "the server could not find the requested resource", {});
}

export function tooLarge(): ApiError {
  return new ApiError(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728");
}

export function methodNotAllowedWhile(message: string): ApiError {
  return new ApiError(405, "MethodNotAllowed", message, {});
}
