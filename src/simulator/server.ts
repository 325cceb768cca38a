import { randomBytes } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Logger, pino } from "pino";
import { createSafeServer } from "../lib/http/index.ts";
import { parseBody } from "./body.ts";
import { type Clock, systemClock } from "./clock.ts";
import { SimulatorCore } from "./core.ts";
import { parameterError, SimError } from "./errors.ts";
import { type HookTokenSource, resolveHookToken } from "./hook-token.ts";
import { mergeParams, parseFormEncoded } from "./params.ts";
import type { ResourceModule, SeedData } from "./resource.ts";
import { resources as allResources } from "./resources/index.ts";
import { defaultSeed, validateSeed } from "./seed.ts";
import type { Store } from "./store.ts";

export interface SimulatorOptions {
  host?: string;
  /** Primary port (the account's host); 0 picks a free one. */
  port?: number;
  /** The "wrong region" port that answers 302 to the primary; 0 picks a free one. */
  regionPort?: number;
  /** Latency added to every /api call, in ms (on top of injected faults). */
  latencyMs?: number;
  /** Validated seed data replacing the default seed (see readSeedFile). */
  seed?: SeedData;
  logger?: Logger;
  clock?: Clock;
  /** Randomness of fault decisions (tests pass a fixed one). */
  random?: () => number;
  /** Domain attribute of the global session cookie (none by default: loopback hosts). */
  cookieDomain?: string;
  /** The resource modules to serve (default: every module in resources/index.ts). */
  resources?: ResourceModule[];
  /**
   * What `/__sim` requests must carry in X-Simulator-Token (16 to 256 visible ASCII characters).
   * Default: SVC_SIMULATOR_TOKEN when set, else a random one (`hookToken` of the result).
   */
  hookToken?: string;
}

export interface Simulator {
  /** Base URL of the account's host, e.g. `http://127.0.0.1:9292`. */
  url: string;
  /** Base URL of the wrong-region host (every call answers 302 to `url`). */
  regionUrl: string;
  store: Store;
  clock: Clock;
  core: SimulatorCore;
  /** The token `/__sim` requests must carry in X-Simulator-Token, and where it came from. */
  hookToken: string;
  hookTokenSource: HookTokenSource;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the simulator: the primary port and the wrong-region port. */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? "127.0.0.1";
  const resources = options.resources ?? allResources;
  const clock = options.clock ?? systemClock();
  const logger = options.logger ?? pino({ level: "silent" });
  const seed = options.seed ?? validateSeed(defaultSeed(resources), resources, "default seed");
  const hook = resolveHookToken(options.hookToken);
  const core = new SimulatorCore({
    hookToken: hook.token,
    clock,
    logger,
    resources,
    seed,
    secret: randomBytes(32),
    random: options.random,
    cookieDomain: options.cookieDomain,
    baseLatencyMs: options.latencyMs,
  });

  const safety = {
    onError: core.requestFailed,
    answer500: (res: ServerResponse) => {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8", connection: "close" });
      res.end("InternalServerError: the simulator failed; see its log");
    },
  };
  const primary = createSafeServer(core.handle, { ...safety, keepAliveTimeoutMs: 65_000 });
  const region = createSafeServer(async (req, res) => {
    let answer: Awaited<ReturnType<typeof answerFromWrongRegion>>;
    try {
      answer = await answerFromWrongRegion(core, req);
    } catch (error) {
      if (!(error instanceof SimError)) throw error;
      answer = { status: error.status, body: error.body };
    }
    const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8" };
    if (answer.location) headers.location = answer.location;
    if (!req.complete) headers.connection = "close";
    res.writeHead(answer.status, headers);
    res.end(answer.body);
    const path = (req.url ?? "/").split("?")[0];
    logger.info({ method: req.method, path, status: answer.status, region: true }, "request");
  }, safety);
  try {
    const port = await listen(primary, options.port ?? 0, host);
    const regionPort = await listen(region, options.regionPort ?? 0, host);
    core.api.urls.primary = urlOf(host, port);
    core.api.urls.region = urlOf(host, regionPort);
  } catch (error) {
    await Promise.all([closeServer(primary), closeServer(region)]);
    throw error;
  }
  return {
    url: core.api.urls.primary,
    regionUrl: core.api.urls.region,
    store: core.store,
    clock,
    core,
    hookToken: hook.token,
    hookTokenSource: hook.source,
    close: async () => {
      await Promise.all([closeServer(primary), closeServer(region)]);
    },
  };
}

const OAUTH_PATH = /^\/api\/oauth2(\.json|\.xml)?\/?$/;

/**
 * The wrong-region host stands for the other cluster. A token request naming an account
 * (`account_id`) is answered as the real token endpoint does, 301 to the account's cluster,
 * or 422 when no cluster hosts it (so a client bounced here from the primary cannot loop);
 * every other call is the regional 302 to the account's host, for every method.
 */
async function answerFromWrongRegion(
  core: SimulatorCore,
  req: IncomingMessage,
): Promise<{ status: number; location?: string; body: string }> {
  // The Location is this host's target on the primary: only a path makes a well-formed one.
  if (!(req.url ?? "/").startsWith("/")) {
    req.resume();
    throw parameterError("the request target must be a path (origin-form), not an absolute URL or '*'");
  }
  const [path = "/", query = ""] = (req.url ?? "/").split("?", 2);
  if (req.method === "POST" && OAUTH_PATH.test(path)) {
    let params = query === "" ? {} : parseFormEncoded(query, "the query string");
    params = mergeParams(params, await parseBody(req));
    const accountId = params.account_id;
    if (typeof accountId === "string") {
      if (!core.store.collection("accounts").get(accountId)) {
        return { status: 422, body: `ResourceNotFound: Couldn't find Account with ID=${accountId}` };
      }
      const location = `${core.api.urls.primary}/api/oauth2/`;
      return { status: 301, location, body: `Account ${accountId} is hosted at ${location}` };
    }
  } else {
    req.resume();
  }
  const location = `${core.api.urls.primary}${req.url ?? "/"}`;
  return { status: 302, location, body: `Redirecting to the account's host: ${location}` };
}
