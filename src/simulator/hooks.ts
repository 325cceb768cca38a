import type { IncomingMessage, ServerResponse } from "node:http";
import * as z from "zod";
import type { Clock } from "./clock.ts";
import { type FaultInjector, faultsSchema } from "./faults.ts";
import { HOOK_TOKEN_ENV, HOOK_TOKEN_HEADER, hookTokenMatches } from "./hook-token.ts";
import { redactSecrets } from "./redact.ts";
import type { RequestStats } from "./stats.ts";
import type { Store } from "./store.ts";

/**
 * What the hooks read and change of one simulator. SimulatorCore, which routes `/__sim/` here, is
 * the one that passes itself; the hooks name only these parts of it.
 */
export interface HookTarget {
  /** What `/__sim` requests must carry in X-Simulator-Token. */
  readonly hookToken: string;
  readonly store: Store;
  readonly stats: RequestStats;
  readonly faults: FaultInjector;
  readonly clock: Clock;
  /** Drops every object, reloads the seed, clears faults and stats. */
  reset(): void;
}

/** Hook bodies are a few hundred bytes of JSON; anything near this is not a hook call. */
export const MAX_HOOK_BODY_BYTES = 1024 * 1024;

const clockSchema = z
  .object({
    advanceSeconds: z
      .number()
      .min(0, "must be 0 or more")
      .max(10 * 365 * 86400, "must be at most 10 years"),
  })
  .strict();

function send(res: ServerResponse, status: number, body: unknown, close = false): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type":
      typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    // A body left unread is not drained for a next request on this connection.
    ...(close ? { connection: "close" } : {}),
  });
  res.end(text);
}

class HookBodyTooLarge extends Error {}

/** The JSON body, at most MAX_HOOK_BODY_BYTES (HookBodyTooLarge past it; SyntaxError when not JSON). */
async function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers["content-length"]) > MAX_HOOK_BODY_BYTES) throw new HookBodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_HOOK_BODY_BYTES) throw new HookBodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  return JSON.parse(text);
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`).join("; ");
}

/**
 * Test hooks outside /api (not part of the service API): state, stats, faults, clock, reset.
 * Each needs the simulator's hook token in X-Simulator-Token, checked before the body is read.
 * See docs/simulator.md.
 */
export async function handleHook(core: HookTarget, req: IncomingMessage, res: ServerResponse, path: string) {
  if (!hookTokenMatches(req.headers, core.hookToken)) {
    const given = req.headers[HOOK_TOKEN_HEADER.toLowerCase()] !== undefined;
    return send(
      res,
      401,
      `AuthenticationError: ${given ? "wrong" : "missing"} ${HOOK_TOKEN_HEADER} header: the test hooks need the simulator's hook token (printed at start, or ${HOOK_TOKEN_ENV})`,
      !req.complete,
    );
  }
  const key = `${req.method} ${path.replace(/\/$/, "")}`;
  // Credentials are never answered: the state shows that a password is set, not what it is.
  if (key === "GET /__sim/state") return send(res, 200, redactSecrets(core.store.snapshot()));
  if (key === "GET /__sim/stats") return send(res, 200, core.stats.report());
  if (key === "GET /__sim/creates") return send(res, 200, core.stats.createLog());
  if (key === "GET /__sim/faults") return send(res, 200, core.faults.current);
  if (key === "GET /__sim/clock") return send(res, 200, { now: new Date(core.clock.now()).toISOString() });
  if (key === "POST /__sim/faults" || key === "POST /__sim/clock") {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      if (error instanceof HookBodyTooLarge) {
        return send(
          res,
          413,
          `ParameterError: hook body is larger than ${MAX_HOOK_BODY_BYTES} bytes (the limit)`,
          true,
        );
      }
      return send(res, 400, `ParameterError: body is not valid JSON (${(error as Error).message})`);
    }
    if (key === "POST /__sim/faults") {
      const parsed = faultsSchema.safeParse(body);
      if (!parsed.success) return send(res, 400, `ParameterError: ${zodMessage(parsed.error)}`);
      core.faults.set(parsed.data);
      return send(res, 200, core.faults.current);
    }
    const parsed = clockSchema.safeParse(body);
    if (!parsed.success) return send(res, 400, `ParameterError: ${zodMessage(parsed.error)}`);
    core.clock.advance(parsed.data.advanceSeconds);
    return send(res, 200, { now: new Date(core.clock.now()).toISOString() });
  }
  if (key === "POST /__sim/reset") {
    req.resume();
    core.reset();
    return send(res, 204, "");
  }
  return send(res, 404, `RouteNotFound: no test hook ${req.method} ${path}`);
}
