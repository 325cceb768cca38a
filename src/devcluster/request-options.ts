import type { IncomingMessage } from "node:http";
import { badRequest, fieldCause, GoLiteral, invalid } from "./errors.ts";
import { readBody } from "./http-util.ts";
import { isObj, type Obj } from "./meta.ts";
import { parseBody } from "./request-body.ts";
import type { DeleteOptions, WriteRequest } from "./requests.ts";

/** The field manager of a non-apply write: `fieldManager`, else the User-Agent's first segment. */
export function managerOf(query: URLSearchParams, req: IncomingMessage): string {
  const given = query.get("fieldManager");
  if (given) return given;
  const agent = req.headers["user-agent"] ?? "";
  return agent.split("/")[0]!.slice(0, 128) || "unknown";
}

export function fieldValidationOf(query: URLSearchParams): WriteRequest["fieldValidation"] {
  const value = query.get("fieldValidation");
  if (value === null || value === "") return "Warn";
  if (value === "Strict" || value === "Warn" || value === "Ignore") return value;
  throw badRequest(`fieldValidation: Invalid value: "${value}": must be one of Ignore, Warn, or Strict`);
}

/** An integer query parameter, refused in the words of Go's strconv as the real server's decoder does. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  if (!/^[+-]?\d+$/.test(raw))
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  return Number(raw);
}

/** The options kind each writing method's query decodes into, as the real server names it. */
const OPTIONS_KIND: Record<string, string> = {
  POST: "CreateOptions",
  PUT: "UpdateOptions",
  PATCH: "PatchOptions",
  DELETE: "DeleteOptions",
};

/**
 * Whether a write is a dry run: every `dryRun` value must be `All`, or the write is refused
 * (422, as the real server validates its CreateOptions, UpdateOptions, ...) rather than done.
 */
export function dryRunOf(values: unknown[], method: string): boolean {
  if (values.length === 0) return false;
  if (values.every((v) => v === "All")) return true;
  throw invalid(OPTIONS_KIND[method] ?? "CreateOptions", "meta.k8s.io", "", [
    fieldCause({
      type: "FieldValueNotSupported",
      field: "dryRun",
      value: new GoLiteral(`[]string{${values.map((v) => JSON.stringify(String(v))).join(", ")}}`),
      detail: 'supported values: "All"',
    }),
  ]);
}

export async function deleteOptions(req: IncomingMessage, query: URLSearchParams): Promise<DeleteOptions> {
  const raw = await readBody(req);
  let body: Obj = {};
  if (raw.trim() !== "") {
    const parsed = parseBody(raw, "application/json");
    if (!isObj(parsed)) throw badRequest("DeleteOptions must be an object");
    body = parsed;
  }
  const options: DeleteOptions = {};
  const policy = query.get("propagationPolicy") ?? body.propagationPolicy;
  if (policy !== undefined && policy !== null) {
    if (policy !== "Orphan" && policy !== "Background" && policy !== "Foreground") {
      throw badRequest(
        `propagationPolicy: Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    options.propagationPolicy = policy;
  } else if (body.orphanDependents === true || query.get("orphanDependents") === "true") {
    options.propagationPolicy = "Orphan";
  }
  if (isObj(body.preconditions)) {
    options.preconditions = {};
    if (typeof body.preconditions.uid === "string") options.preconditions.uid = body.preconditions.uid;
    if (typeof body.preconditions.resourceVersion === "string") {
      options.preconditions.resourceVersion = body.preconditions.resourceVersion;
    }
  }
  const fromQuery = query.getAll("dryRun");
  if (dryRunOf(fromQuery.length > 0 ? fromQuery : Array.isArray(body.dryRun) ? body.dryRun : [], "DELETE"))
    options.dryRun = true;
  return options;
}
