import pino, { type DestinationStream, type Logger } from "pino";
import { API_REDACT_PATHS } from "../../api/index.ts";

/** Paths that can hold a secret anywhere in a log line (pino redaction). */
export const REDACT_PATHS = [
  ...API_REDACT_PATHS,
  ...API_REDACT_PATHS.map((p) => (p.startsWith("[") ? `*${p}` : `*.${p}`)),
  "*.data",
  "*.stringData",
  "secret",
  "*.secret",
];

/** The operator's JSON logger: kind, namespace, name, href and reconcileId are added per reconcile. */
export function operatorLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { component: "svc-operator" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: errorWithoutExpectedStack },
    },
    destination,
  );
}

/**
 * pino's error serializer, without the stack of a failure the operator expects: an error that
 * carries a stable `code` (the service client's, the apiserver's, the audit trail's) is explained
 * by its message and fields, and a stack there only buries that message. An error without a code
 * is a bug, and keeps its stack.
 */
export function errorWithoutExpectedStack(err: unknown): unknown {
  const serialized = pino.stdSerializers.err(err as Error) as unknown;
  if (
    err instanceof Error &&
    "code" in err &&
    err.code !== undefined &&
    serialized &&
    typeof serialized === "object"
  )
    delete (serialized as { stack?: string }).stack;
  return serialized;
}

const noop = () => {};

/**
 * A child logger made on first use. pino's child() runs each binding through the redaction, which
 * with wildcard paths costs tens of KB of garbage per call; a reconcile makes one child and most
 * log nothing at the usual levels. A call at a disabled level returns without making the child.
 */
export function lazyChild(parent: Logger, bindings: () => Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const real = () => {
    child ??= parent.child(bindings());
    return child;
  };
  const levels = parent.levels.values;
  return new Proxy(parent, {
    get(_target, prop) {
      if (child === undefined && typeof prop === "string" && prop in levels && !parent.isLevelEnabled(prop))
        return noop;
      const target = real();
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(_target, prop, value) {
      return Reflect.set(real(), prop, value);
    },
  });
}
