import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** The header every `/__sim` request must carry. */
export const HOOK_TOKEN_HEADER = "X-Simulator-Token";
/** Where the CLI, `dev` and the test harnesses take the token from when it is set. */
export const HOOK_TOKEN_ENV = "SVC_SIMULATOR_TOKEN";

const TOKEN = /^[\x21-\x7e]{16,256}$/;

/** Where a simulator's hook token came from (a generated one is printed at start). */
export type HookTokenSource = "option" | "env" | "generated";

/**
 * The hook token: the one given, else `SVC_SIMULATOR_TOKEN`, else a random one. A given or
 * environment token must be 16 to 256 visible ASCII characters (it travels in a header).
 */
export function resolveHookToken(
  given: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { token: string; source: HookTokenSource } {
  const fromEnv = env[HOOK_TOKEN_ENV];
  const [token, source, name] =
    given !== undefined
      ? [given, "option" as const, "hookToken"]
      : fromEnv !== undefined && fromEnv !== ""
        ? [fromEnv, "env" as const, HOOK_TOKEN_ENV]
        : [randomBytes(24).toString("base64url"), "generated" as const, ""];
  if (!TOKEN.test(token)) {
    throw new HookTokenError(`${name}: must be 16 to 256 visible ASCII characters (no spaces)`);
  }
  return { token, source };
}

export class HookTokenError extends Error {
  override name = "HookTokenError";
}

/** Whether the request carries the token, compared in constant time. */
export function hookTokenMatches(headers: IncomingHttpHeaders, token: string): boolean {
  const given = headers[HOOK_TOKEN_HEADER.toLowerCase()];
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
