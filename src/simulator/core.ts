import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { Authenticator } from "./auth.ts";
import { parseBody } from "./body.ts";
import type { Clock } from "./clock.ts";
import { RequestContext, type SimResponse } from "./context.ts";
import { SimError } from "./errors.ts";
import { FaultInjector } from "./faults.ts";
import { type HookTarget, handleHook } from "./hooks.ts";
import { mergeParams, type Params, parseFormEncoded } from "./params.ts";
import type { Format } from "./representation.ts";
import type { ResourceModule, RouteDef, SeedData, SimulatorApi } from "./resource.ts";
import { checkAccess } from "./roles.ts";
import { Router } from "./router.ts";
import { loadSeed } from "./seed.ts";
import { RequestStats } from "./stats.ts";
import { Store } from "./store.ts";

/** API versions this simulator serves. */
export const SUPPORTED_VERSIONS = ["1.5"];

const WRITE_METHODS = new Set(["POST", "PUT"]);

function wantsFormat(accept: string | undefined): Format | null {
  if (accept === undefined || accept === "") return "json";
  const lower = accept.toLowerCase();
  if (lower.includes("xml"))
    return lower.includes("json") && lower.indexOf("json") < lower.indexOf("xml") ? "json" : "xml";
  if (
    lower.includes("json") ||
    lower.includes("*/*") ||
    lower.includes("text/") ||
    lower.includes("image/")
  ) {
    return "json";
  }
  if (lower.includes("application/vnd.svc") || lower.includes("application/*")) return "json";
  return null;
}

function textError(status: number, body: string, headers: Record<string, string> = {}): SimResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers }, body };
}

/** Everything one simulator instance holds, and the request pipeline of the primary port. */
export class SimulatorCore implements HookTarget {
  readonly store = new Store();
  readonly stats = new RequestStats();
  readonly router = new Router<RouteDef>();
  readonly faults: FaultInjector;
  readonly auth: Authenticator;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly api: SimulatorApi;
  /** What `/__sim` requests must carry in X-Simulator-Token. */
  readonly hookToken: string;
  private readonly seedData: SeedData;

  constructor(init: {
    clock: Clock;
    logger: Logger;
    resources: ResourceModule[];
    seed: SeedData;
    secret: Buffer;
    hookToken: string;
    random?: () => number;
    cookieDomain?: string;
    baseLatencyMs?: number;
  }) {
    this.clock = init.clock;
    this.logger = init.logger;
    this.hookToken = init.hookToken;
    this.faults = new FaultInjector(init.random);
    this.baseLatencyMs = init.baseLatencyMs ?? 0;
    this.auth = new Authenticator(init.clock, { cookieDomain: init.cookieDomain });
    this.seedData = init.seed;
    this.api = {
      store: this.store,
      clock: this.clock,
      auth: this.auth,
      secret: init.secret,
      urls: { primary: "", region: "" },
      route: (def) => this.router.add(def.method, def.path, def),
    };
    for (const resource of init.resources) resource.register(this.api);
    this.resources = init.resources;
    this.reset();
  }

  private readonly resources: ResourceModule[];
  private readonly baseLatencyMs: number;

  /** Drops every object, reloads the seed, clears faults and stats (sessions survive). */
  reset(): void {
    this.store.clear();
    loadSeed(this.store, this.seedData, this.resources);
    this.faults.clear();
    this.stats.clear();
  }

  /**
   * Entry point of the primary port. What it throws is a bug: the safe server around it logs it
   * once (`requestFailed`) and answers `answer500`.
   */
  handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (path.startsWith("/__sim/")) return handleHook(this, req, res, path);
    this.stats.begin();
    try {
      await this.process(req, res, path, q === -1 ? "" : url.slice(q + 1), started);
    } finally {
      this.stats.end(performance.now() - started);
    }
  };

  /** One log line per request that failed inside the simulator (never its query string). */
  requestFailed = (error: unknown, req: IncomingMessage): void => {
    const path = (req.url ?? "/").split("?")[0]!.slice(0, 200);
    this.logger.error({ err: error, method: req.method, path }, "simulator request failed");
  };

  private async process(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
    started: number,
  ): Promise<void> {
    const method = req.method ?? "GET";
    const delay = this.baseLatencyMs + (this.faults.active ? this.faults.delayMs() : 0);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));

    const match = this.router.match(method, path);
    const template =
      match.kind === "found" || match.kind === "method-not-allowed" ? match.template : "(unmatched)";

    if (this.faults.active) {
      const decision = this.faults.before();
      if (decision.kind === "reset") {
        this.finish(method, path, template, 0, started);
        req.socket.destroy();
        return;
      }
      if (decision.kind === "status") {
        req.resume();
        this.write(
          req,
          res,
          textError(decision.status, decision.body, decision.headers),
          method,
          path,
          template,
          started,
        );
        return;
      }
    }

    let answer: SimResponse;
    let route: RouteDef | null = null;
    try {
      answer = await this.dispatch(req, match, path, query, (r) => {
        route = r;
      });
    } catch (error) {
      if (!(error instanceof SimError)) throw error;
      answer = {
        status: error.status,
        headers: { "content-type": error.contentType, ...error.headers },
        body: error.body,
      };
    }
    if (
      route &&
      WRITE_METHODS.has(method) &&
      answer.status < 300 &&
      this.faults.active &&
      this.faults.dropAfterCommit()
    ) {
      this.finish(method, path, template, 0, started);
      req.socket.destroy();
      return;
    }
    this.write(req, res, answer, method, path, template, started);
  }

  private async dispatch(
    req: IncomingMessage,
    match: ReturnType<Router<RouteDef>["match"]>,
    path: string,
    query: string,
    found: (route: RouteDef) => void,
  ): Promise<SimResponse> {
    if (match.kind === "not-found") {
      req.resume();
      return textError(404, `RouteNotFound: no route matches ${req.method} ${path}`);
    }
    if (match.kind === "method-not-allowed") {
      req.resume();
      return textError(
        405,
        `MethodNotAllowed: ${req.method} is not allowed on ${path} (allowed: ${match.allowed.join(", ")})`,
        {
          allow: match.allowed.join(", "),
        },
      );
    }
    if (match.kind === "unknown-format") {
      req.resume();
      return textError(406, `NotAcceptable: unknown format '.${match.extension}' (use .json or .xml)`);
    }
    const route = match.handler;
    found(route);
    const format = match.suffix ?? wantsFormat(req.headers.accept) ?? (route.raw ? "json" : null);
    if (format === null) {
      req.resume();
      return textError(406, `NotAcceptable: cannot answer in '${req.headers.accept}' (use JSON or XML)`);
    }

    const version = req.headers["x-api-version"] ?? req.headers.x_api_version;
    if (version === undefined) {
      if (route.versionRequired) {
        req.resume();
        throw new SimError(400, "ParameterError", "the X-API-Version header is required on this call");
      }
    } else if (Array.isArray(version) || !SUPPORTED_VERSIONS.includes(version.trim())) {
      req.resume();
      throw new SimError(
        422,
        "UnsupportedVersion",
        `X-API-Version '${String(version)}' is not supported (use 1.5)`,
      );
    }

    // Who is calling is settled from the headers before a byte of the body is parsed: an
    // anonymous or unauthorised caller costs no parsing, however large or hostile its body.
    const principal = route.access === "public" ? null : this.auth.authenticate(req.headers);
    if (principal) checkAccess(this.store, principal.userId, route.access);

    let params: Params = query === "" ? {} : parseFormEncoded(query, "the query string");
    const body = await parseBody(req);
    if (Object.keys(body).length > 0) params = mergeParams(params, body);

    const ctx = new RequestContext({
      method: req.method ?? "GET",
      path,
      template: route.path,
      pathParams: match.params,
      params,
      format,
      headers: req.headers,
      principal,
      store: this.store,
      clock: this.clock,
    });
    return route.handler(ctx);
  }

  private write(
    req: IncomingMessage,
    res: ServerResponse,
    answer: SimResponse,
    method: string,
    path: string,
    template: string,
    started: number,
  ): void {
    const body = answer.body;
    const headers: Record<string, string | string[]> = {
      ...answer.headers,
      "content-length": String(Buffer.byteLength(body)),
    };
    // A body left unread (refused before parsing) is not drained for the next request: the
    // connection closes after this answer.
    if (!req.complete) headers.connection = "close";
    res.writeHead(answer.status, headers);
    res.end(body);
    if (method === "POST" && answer.status === 201) this.logCreate(answer, started);
    this.finish(method, path, template, answer.status, started);
  }

  /** The create's object and when its request arrived (`GET /__sim/creates`: benches time it). */
  private logCreate(answer: SimResponse, started: number): void {
    const location = answer.headers.location;
    let href = typeof location === "string" ? location.replace(/^https?:\/\/[^/]+/, "") : undefined;
    if (href === undefined && answer.body.length > 0) {
      try {
        const links = (JSON.parse(String(answer.body)) as { links?: { rel: string; href: string }[] }).links;
        href = links?.find((l) => l.rel === "self")?.href;
      } catch {
        // Not JSON (XML asked): not logged.
      }
    }
    if (href !== undefined) this.stats.created(href, performance.timeOrigin + started);
  }

  /** One stats entry and one log line per request (no query string, cookies or tokens). */
  private finish(method: string, path: string, template: string, status: number, started: number): void {
    this.stats.record(method, template, status);
    if (this.logger.isLevelEnabled("info")) {
      this.logger.info(
        { method, path, route: template, status, ms: Math.round((performance.now() - started) * 10) / 10 },
        "request",
      );
    }
  }
}
