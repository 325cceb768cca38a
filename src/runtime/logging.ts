import pino, { type DestinationStream, type Logger } from "pino";
import { API_REDACT_PATHS } from "../api/index.ts";

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
    },
    destination,
  );
}
