import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { SimulatorCore } from "./core.ts";
import { faultsSchema } from "./faults.ts";

const clockSchema = z
  .object({
    advanceSeconds: z
      .number()
      .min(0, "must be 0 or more")
      .max(10 * 365 * 86400, "must be at most 10 years"),
  })
  .strict();

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type":
      typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  return JSON.parse(text);
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`).join("; ");
}

/**
 * Test hooks outside /api (not part of the service API): state, stats, faults, clock, reset.
 * See docs/simulator.md.
 */
export async function handleHook(
  core: SimulatorCore,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
) {
  const key = `${req.method} ${path.replace(/\/$/, "")}`;
  if (key === "GET /__sim/state") return send(res, 200, core.store.snapshot());
  if (key === "GET /__sim/stats") return send(res, 200, core.stats.report());
  if (key === "GET /__sim/faults") return send(res, 200, core.faults.current);
  if (key === "GET /__sim/clock") return send(res, 200, { now: new Date(core.clock.now()).toISOString() });
  if (key === "POST /__sim/faults" || key === "POST /__sim/clock") {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
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
