import qs from "qs";
import { fixedClock } from "../../src/simulator/clock.ts";
import { SEED_CREDENTIALS } from "../../src/simulator/seed-data.ts";
import { createSimulator, type Simulator, type SimulatorOptions } from "../../src/simulator/server.ts";
import { simHookHeaders } from "../support/sim-hook.ts";

/**
 * Test harness for the simulator over real HTTP (shared by every simulator test and the
 * API client's tests):
 *
 *   const h = await startSimulator();          // free port on 127.0.0.1, default seed
 *   afterAll(() => h.close());
 *   const res = await h.admin.post("/api/deployments", { form: { deployment: { name: "x" } } });
 *   expect(res.status).toBe(201);
 *   await h.expectUnchanged(() => h.admin.post(...))   // store identical before and after
 *
 * `h.admin` is user 1 (every role, both settings) logged in with a session; `h.user2` is
 * user 2 (no roles); `h.anonymous` sends no credentials; `h.hooks` sends the simulator's
 * test-hook token (X-Simulator-Token) and nothing else. Every client sends
 * `X-API-Version: 1.5` unless the request overrides the header.
 */

export interface SimAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json<T = unknown>(): T;
}

export interface RequestOptions {
  /** urlencoded body: an object (encoded in bracket notation) or a raw string. */
  form?: Record<string, unknown> | string;
  /** JSON body. */
  json?: unknown;
  /** multipart body. */
  multipart?: FormData;
  /** query string: an object (bracket notation) or a raw string (without `?`). */
  query?: Record<string, unknown> | string;
  headers?: Record<string, string>;
}

export function encodeForm(params: Record<string, unknown>): string {
  return qs.stringify(params, { arrayFormat: "brackets", encodeValuesOnly: true });
}

export class SimClient {
  readonly base: string;
  private readonly auth: Record<string, string>;

  constructor(base: string, auth: Record<string, string> = {}) {
    this.base = base;
    this.auth = auth;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<SimAnswer> {
    const headers: Record<string, string> = { "x-api-version": "1.5", ...this.auth, ...options.headers };
    let body: string | FormData | undefined;
    if (options.form !== undefined) {
      body = typeof options.form === "string" ? options.form : encodeForm(options.form);
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    } else if (options.multipart !== undefined) {
      body = options.multipart;
    }
    for (const [k, v] of Object.entries(headers)) if (v === "") delete headers[k];
    let url = this.base + path;
    if (options.query !== undefined) {
      url += `?${typeof options.query === "string" ? options.query : encodeForm(options.query)}`;
    }
    const res = await fetch(url, { method, headers, body, redirect: "manual" });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  get(path: string, options?: RequestOptions) {
    return this.request("GET", path, options);
  }
  post(path: string, options?: RequestOptions) {
    return this.request("POST", path, options);
  }
  put(path: string, options?: RequestOptions) {
    return this.request("PUT", path, options);
  }
  delete(path: string, options?: RequestOptions) {
    return this.request("DELETE", path, options);
  }
}

/** Logs in with the session endpoint; answers a client carrying both cookies. */
export async function login(
  base: string,
  email: string,
  password: string,
  accountId = "1",
): Promise<SimClient> {
  const res = await new SimClient(base).post("/api/session", {
    form: { email, password, account_href: `/api/accounts/${accountId}` },
  });
  if (res.status !== 204) throw new Error(`login of ${email} answered ${res.status}: ${res.text}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return new SimClient(base, { cookie });
}

/** Exchanges the refresh token for an access token; answers a client sending it as Bearer. */
export async function oauthClient(base: string, refreshToken: string = SEED_CREDENTIALS.refreshToken) {
  const res = await new SimClient(base).post("/api/oauth2/", {
    form: { grant_type: "refresh_token", refresh_token: refreshToken },
  });
  if (res.status !== 200) throw new Error(`oauth2 answered ${res.status}: ${res.text}`);
  const token = res.json<{ access_token: string }>().access_token;
  return new SimClient(base, { authorization: `Bearer ${token}` });
}

export interface Harness {
  sim: Simulator;
  url: string;
  regionUrl: string;
  admin: SimClient;
  user2: SimClient;
  anonymous: SimClient;
  /** Carries the X-Simulator-Token header `/__sim` requests need. */
  hooks: SimClient;
  /** `GET /__sim/state`: every stored object (credentials redacted). */
  state(): Promise<Record<string, Array<Record<string, unknown>>>>;
  /** POSTs a test hook (`faults`, `clock`, `reset`) with a JSON body. */
  hook(name: string, body?: unknown): Promise<SimAnswer>;
  /** Runs `call`, asserts the store is unchanged by it, and answers the call's answer. */
  expectUnchanged(call: () => Promise<SimAnswer>): Promise<SimAnswer>;
  close(): Promise<void>;
}

/** Starts a simulator on a free port (default seed; pass options to change it). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Harness> {
  const sim = await createSimulator({
    port: 0,
    regionPort: 0,
    clock: fixedClock(Date.UTC(2026, 0, 1)),
    ...options,
  });
  const anonymous = new SimClient(sim.url);
  const hooks = new SimClient(sim.url, simHookHeaders(sim));
  const admin = await login(sim.url, SEED_CREDENTIALS.admin.email, SEED_CREDENTIALS.admin.password).catch(
    () => anonymous,
  );
  const user2 = await login(sim.url, SEED_CREDENTIALS.user2.email, SEED_CREDENTIALS.user2.password).catch(
    () => anonymous,
  );
  const state = async () =>
    (await hooks.get("/__sim/state")).json<Record<string, Array<Record<string, unknown>>>>();
  return {
    sim,
    url: sim.url,
    regionUrl: sim.regionUrl,
    admin,
    user2,
    anonymous,
    hooks,
    state,
    hook: (name, body = {}) => hooks.post(`/__sim/${name}`, { json: body }),
    async expectUnchanged(call) {
      const before = JSON.stringify(await state());
      const answer = await call();
      const after = JSON.stringify(await state());
      if (before !== after) {
        throw new Error(`the store changed on a call answered ${answer.status} ${answer.text}`);
      }
      return answer;
    },
    close: () => sim.close(),
  };
}
