import pino, { type Logger } from "pino";

/**
 * Every field that could ever hold a credential, at any depth pino's redaction supports.
 * The client never puts one in a log line; this is the second line of defence for
 * objects logged by mistake (errors with request options, headers, token responses).
 */
export const API_REDACT_PATHS: string[] = [
  "authorization",
  "cookie",
  "password",
  "refreshToken",
  "refresh_token",
  "accessToken",
  "access_token",
  "token",
  "client_secret",
  '["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  "*.authorization",
  "*.Authorization",
  "*.cookie",
  "*.Cookie",
  '*["set-cookie"]',
  "*.password",
  "*.refreshToken",
  "*.refresh_token",
  "*.accessToken",
  "*.access_token",
  "*.token",
  "*.client_secret",
  "*.headers.authorization",
  "*.headers.cookie",
  '*.headers["set-cookie"]',
  "*.auth.password",
  "*.auth.refreshToken",
];

/** The client's logger: a child of the injected one, redacting credentials whatever the parent does. */
export function apiLogger(parent: Logger | undefined): Logger {
  const base = parent ?? pino({ level: "silent" });
  return base.child({ component: "svc-api" }, { redact: { paths: API_REDACT_PATHS, censor: "[redacted]" } });
}
