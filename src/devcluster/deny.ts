import * as z from "zod";
import { type ApiError, badRequest, forbidden } from "./errors.ts";

/**
 * Test-only authorization: the devcluster has no RBAC (one token may do everything), so a test of
 * an operator whose ServiceAccount lacks a verb tells it which requests to refuse. A refused
 * request gets kube-apiserver's 403, word for word (its authorization filter's forbiddenMessage
 * wrapped in apierrors.NewForbidden), so a client sees what it would see against a real cluster.
 */

/** The ServiceAccount deploy/operator/rbac.yaml binds, named in the refusals. */
export const DENIED_USER = "system:serviceaccount:svc-operator-system:svc-operator";

const name = z.string().min(1, "must not be empty");
export const denyRuleSchema = z
  .object({
    /** get, list, watch, create, update, patch, delete, deletecollection, or `*`. */
    verb: name,
    /** Plural, e.g. `accounts`, or `*`. */
    resource: name,
    /** API group (`cloud.svc.io`; `""` for the core group); any group when absent. */
    group: z.string().optional(),
    /** `status`, ...; when absent the rule covers the resource and its subresources. */
    subresource: z.string().optional(),
    /** Only in this namespace; everywhere when absent. */
    namespace: z.string().optional(),
    /**
     * `cluster`: only requests at the cluster scope (a list across every namespace), as a user
     * granted a Role in each namespace but no ClusterRole is refused; `namespace`: only requests
     * in a namespace. Both when absent.
     */
    scope: z.enum(["cluster", "namespace"], { error: "must be cluster or namespace" }).optional(),
  })
  .strict();

export type DenyRule = z.infer<typeof denyRuleSchema>;

export const denyBodySchema = z
  .object({
    rules: z.array(denyRuleSchema).max(1000, "at most 1000 rules"),
    /** The user the refusals name (default: the operator's ServiceAccount). */
    user: name.optional(),
  })
  .strict();

export type DenyConfig = z.infer<typeof denyBodySchema>;

/** One request as the authorizer sees it. */
export interface RequestAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** RBAC's verb for a request: GET of a collection is list (or watch), of one object get. */
export function requestVerb(method: string, named: boolean, watch: boolean): string {
  if (watch) return "watch";
  switch (method) {
    case "GET":
    case "HEAD":
      return named ? "get" : "list";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return named ? "delete" : "deletecollection";
    default:
      return method.toLowerCase();
  }
}

export class DenyList {
  private config: DenyConfig = { rules: [] };

  get current(): DenyConfig {
    return this.config;
  }

  /** Replaces the rules; `{rules: []}` allows everything again. */
  set(config: DenyConfig): void {
    this.config = config;
  }

  /** Parses a hook body (400 naming the field when it is wrong) and applies it. */
  setFromBody(body: unknown): DenyConfig {
    const parsed = denyBodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw badRequest(`${issue.path.join(".") || "body"}: ${issue.message}`);
    }
    this.set(parsed.data);
    return parsed.data;
  }

  /** The 403 for a request a rule refuses, else undefined. */
  check(a: RequestAttributes): ApiError | undefined {
    if (this.config.rules.length === 0) return undefined;
    const rule = this.config.rules.find(
      (r) =>
        (r.verb === "*" || r.verb === a.verb) &&
        (r.resource === "*" || r.resource === a.resource) &&
        (r.group === undefined || r.group === a.group) &&
        (r.subresource === undefined || r.subresource === a.subresource) &&
        (r.namespace === undefined || r.namespace === a.namespace) &&
        (r.scope === undefined || (r.scope === "cluster") === (a.namespace === undefined)),
    );
    if (!rule) return undefined;
    const user = this.config.user ?? DENIED_USER;
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const scope = a.namespace ? `in the namespace "${a.namespace}"` : "at the cluster scope";
    const why = `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
    return forbidden({ group: a.group, resource: a.resource }, a.name ?? "", why);
  }
}

/**
 * The `--deny` flag: comma-separated `VERB:RESOURCE[.GROUP][/SUBRESOURCE]`, e.g.
 * `list:accounts.cloud.svc.io,patch:deployments.cloud.svc.io/status,get:secrets`. A resource
 * without a group is one of the core group. Throws naming the entry that is wrong.
 */
export function parseDenyFlag(text: string): DenyRule[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^([a-z*]+):([a-z0-9*-]+)(?:\.([a-z0-9.-]+))?(?:\/([a-z]+))?$/.exec(entry);
      if (!m)
        throw new Error(
          `"${entry}" is not VERB:RESOURCE[.GROUP][/SUBRESOURCE] (e.g. list:accounts.cloud.svc.io)`,
        );
      const [, verb, resource, group, subresource] = m;
      return {
        verb: verb!,
        resource: resource!,
        ...(resource === "*" ? {} : { group: group ?? "" }),
        ...(subresource ? { subresource } : {}),
      };
    });
}
