/**
 * HTTP serving with the limits every server of the product needs: a server whose header, request
 * and socket limits are set explicitly, request targets parsed without trusting the Host header,
 * and a bounded scan of how deep a JSON or YAML body nests before anything recursive reads it.
 * Owns no routes, no bodies and no auth: each server brings its own handler.
 */

export { nestingDepth } from "./nesting.ts";
export {
  createSafeServer,
  type Handler,
  requestTarget,
  type SafeServerOptions,
  SERVER_LIMITS,
  type ServerLimits,
} from "./safe-server.ts";
