import { Writable } from "node:stream";
import pino from "pino";
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeEach } from "vitest";
import type { ApiClientOptions, CallEvent } from "../../src/api/client.ts";
import { createServiceApi, type ServiceApi } from "../../src/api/index.ts";
import { SEED_CREDENTIALS } from "../../src/simulator/seed-data.ts";
import { type Harness, startSimulator } from "../simulator/harness.ts";

/**
 * A service client for the simulator of a test harness, with everything observable:
 * log lines, calls (onCall), requested sleeps, and the credential headers actually sent.
 */
export interface TestApi {
  api: ServiceApi;
  logs: string[];
  events: CallEvent[];
  sleeps: number[];
  /** Values of Authorization and Cookie headers the client sent (to prove they are never logged). */
  sentCredentials: Set<string>;
  close(): Promise<void>;
}

export type AuthMode = "oauth" | "session";

export function authFor(mode: AuthMode): ApiClientOptions["auth"] {
  return mode === "oauth"
    ? { type: "oauth", refreshToken: SEED_CREDENTIALS.refreshToken }
    : { type: "session", email: SEED_CREDENTIALS.admin.email, password: SEED_CREDENTIALS.admin.password };
}

export function testApi(
  h: Harness,
  options: Partial<ApiClientOptions> & {
    mode?: AuthMode;
    onSleep?: (ms: number) => Promise<void>;
    /** Called as each request is handed to the dispatcher. */
    onDispatch?: () => void;
    /** May edit the response headers before the client sees them (e.g. drop a Location). */
    editResponseHeaders?: (status: number, headers: Record<string, unknown>) => void;
  } = {},
): TestApi {
  const logs: string[] = [];
  const events: CallEvent[] = [];
  const sleeps: number[] = [];
  const sentCredentials = new Set<string>();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const { mode = "oauth", onSleep, onDispatch, editResponseHeaders, ...rest } = options;
  const agent = new Agent({ connections: 8 });
  // An undici interceptor recording what credentials go over the wire.
  const dispatcher: Dispatcher = agent.compose((dispatch) => (opts, handler) => {
    const headers = opts.headers as Record<string, string> | undefined;
    if (headers?.authorization) sentCredentials.add(headers.authorization.replace(/^Bearer /, ""));
    if (headers?.cookie)
      for (const c of headers.cookie.split("; ")) sentCredentials.add(c.split("=")[1] ?? c);
    onDispatch?.();
    if (!editResponseHeaders) return dispatch(opts, handler);
    const edited: Dispatcher.DispatchHandler = {
      onRequestStart: (c, ctx) => handler.onRequestStart?.(c, ctx),
      onResponseStart: (c, status, headers, message) => {
        editResponseHeaders(status, headers as Record<string, unknown>);
        handler.onResponseStart?.(c, status, headers, message);
      },
      onResponseData: (c, chunk) => handler.onResponseData?.(c, chunk),
      onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
      onResponseError: (c, error) => handler.onResponseError?.(c, error),
    };
    return dispatch(opts, edited);
  });
  const api = createServiceApi({
    endpoint: h.url,
    accountId: SEED_CREDENTIALS.accountId,
    auth: authFor(mode),
    dispatcher,
    rateLimit: false,
    logger: pino({ level: "trace" }, sink),
    onCall: (e) => events.push(e),
    sleep: async (ms) => {
      sleeps.push(ms);
      await onSleep?.(ms);
    },
    ...rest,
  });
  return {
    api,
    logs,
    events,
    sleeps,
    sentCredentials,
    close: async () => {
      await api.close();
      await agent.close();
    },
  };
}

/** Request counts by `METHOD route status` from the simulator's stats hook. */
export async function simStats(h: Harness): Promise<Map<string, number>> {
  const stats = (await h.hooks.get("/__sim/stats")).json<{
    requests: Array<{ method: string; route: string; status: number; count: number }>;
  }>();
  return new Map(stats.requests.map((r) => [`${r.method} ${r.route} ${r.status}`, r.count]));
}

export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}

/**
 * A simulator and a client for one test file of resource calls: both closed after the file,
 * the simulator reset before each test so every test starts from the default seed.
 */
export async function startResourceSuite(): Promise<{ h: Harness; t: TestApi; api: ServiceApi }> {
  const h = await startSimulator();
  const t = testApi(h);
  afterAll(async () => {
    await t.close();
    await h.close();
  });
  beforeEach(async () => {
    await h.hook("reset");
  });
  return { h, t, api: t.api };
}
