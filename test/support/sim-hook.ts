import { HOOK_TOKEN_ENV, HOOK_TOKEN_HEADER } from "../../src/simulator/hook-token.ts";

/** A simulator in this process (its own token), or the URL of one in another (SVC_SIMULATOR_TOKEN). */
export type HookTarget = string | { url: string; hookToken: string };

/** The header that opens the simulator's test hooks. */
export function simHookHeaders(target: HookTarget): Record<string, string> {
  const token = typeof target === "string" ? process.env[HOOK_TOKEN_ENV] : target.hookToken;
  if (!token) throw new Error(`${HOOK_TOKEN_ENV} is not set: a simulator in another process needs it`);
  return { [HOOK_TOKEN_HEADER]: token };
}

/**
 * Calls a test hook (`state`, `stats`, `faults`, `clock`, `reset`): a GET without `body`, a JSON
 * POST with it. Every test, bench and chaos run reaches `/__sim` through here or the simulator
 * harness, which send the token.
 */
export function simHook(target: HookTarget, hook: string, body?: unknown): Promise<Response> {
  const url = `${typeof target === "string" ? target : target.url}/__sim/${hook}`;
  const headers = simHookHeaders(target);
  if (body === undefined) return fetch(url, { headers });
  return fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
