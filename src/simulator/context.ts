import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "./auth.ts";
import type { Clock } from "./clock.ts";
import { parameterError } from "./errors.ts";
import { applyFilters, compileFilters, type FilterSpec } from "./filters.ts";
import type { Params } from "./params.ts";
import { type Format, mediaType, type Representation, renderMany, renderOne } from "./representation.ts";
import type { Store } from "./store.ts";
import { type ParamSpec, validateParams } from "./validate.ts";

/** What a handler answers; the server writes it. */
export interface SimResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer;
}

/**
 * One request as a resource handler sees it: path params, merged query+body params, the
 * negotiated format, the caller, and helpers that build the answers the real service sends.
 */
export class RequestContext {
  readonly method: string;
  readonly path: string;
  readonly template: string;
  /** Path parameters (`:id`, `:cloud_id`, ...), URI-decoded. */
  readonly pathParams: Record<string, string>;
  /** Query-string and body parameters merged (body wins), bracket notation already nested. */
  readonly params: Params;
  readonly format: Format;
  readonly headers: IncomingHttpHeaders;
  /** The caller; null only on `public` routes. */
  readonly principal: Principal | null;
  readonly store: Store;
  readonly clock: Clock;

  constructor(init: {
    method: string;
    path: string;
    template: string;
    pathParams: Record<string, string>;
    params: Params;
    format: Format;
    headers: IncomingHttpHeaders;
    principal: Principal | null;
    store: Store;
    clock: Clock;
  }) {
    this.method = init.method;
    this.path = init.path;
    this.template = init.template;
    this.pathParams = init.pathParams;
    this.params = init.params;
    this.format = init.format;
    this.headers = init.headers;
    this.principal = init.principal;
    this.store = init.store;
    this.clock = init.clock;
  }

  /** A path parameter that the route template guarantees. */
  param(name: string): string {
    const value = this.pathParams[name];
    if (value === undefined) throw new Error(`route ${this.template} has no :${name}`);
    return value;
  }

  /** The caller's user id (routes that are not public always have one). */
  get userId(): string {
    if (!this.principal) throw new Error(`route ${this.template} is public: no caller`);
    return this.principal.userId;
  }

  /** Validates params against a declarative spec (400 naming the parameter and the rule). */
  validate<T = Params>(spec: ParamSpec): T {
    return validateParams<T>(this.params, spec);
  }

  /** The `view` parameter: one of `allowed` (String, not blank), default `default`. */
  view<V extends string>(allowed: readonly V[]): V {
    const raw = this.params.view;
    if (raw === undefined) return "default" as V;
    if (typeof raw !== "string") throw parameterError("view must be a String");
    if (raw === "") throw parameterError("view must not be blank");
    if (!allowed.includes(raw as V))
      throw parameterError(`view must be one of ${allowed.join(", ")} (got '${raw}')`);
    return raw as V;
  }

  /** Applies `filter[]` to the objects in one pass (400 for an unknown or malformed filter). */
  filter<T>(objects: Iterable<T>, spec: FilterSpec<T>): T[] {
    return applyFilters(objects, compileFilters(this.params.filter, spec));
  }

  /** 200 with one object (`application/vnd.svc.<type>+json`). */
  one(type: string, representation: Representation, status = 200): SimResponse {
    return {
      status,
      headers: { "content-type": mediaType(type, this.format, false) },
      body: renderOne(type, representation, this.format),
    };
  }

  /** 200 with a collection (`...;type=collection`, XML root = `plural`). */
  many(type: string, plural: string, representations: Representation[]): SimResponse {
    return {
      status: 200,
      headers: { "content-type": mediaType(type, this.format, true) },
      body: renderMany(type, plural, representations, this.format),
    };
  }

  /** 201 with a relative `Location`; with `object`, the body is its representation. */
  created(href: string, object?: { type: string; representation: Representation }): SimResponse {
    if (object) {
      const answer = this.one(object.type, object.representation, 201);
      answer.headers.location = href;
      return answer;
    }
    return { status: 201, headers: { location: href }, body: "" };
  }

  /** 204 with an empty body (update, destroy, actions). */
  noContent(): SimResponse {
    return { status: 204, headers: {}, body: "" };
  }

  /** Any other answer (plain text detail, PNG, JSON token). */
  raw(
    status: number,
    contentType: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ): SimResponse {
    return { status, headers: { "content-type": contentType, ...headers }, body };
  }
}
