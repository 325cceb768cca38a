import * as z from "zod";
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TRANSPORT, EndpointAllowlist } from "../../api/index.ts";

/**
 * Operator configuration from flags and environment. A flag wins over its
 * environment variable; every value is validated and a bad one is reported
 * naming both the flag and the variable.
 */

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "10m", "30s", "1.5h", "250ms" or a bare number of seconds -> milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[m[2] ?? "s"]!);
}

const duration = (min: number) =>
  z.string().transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === undefined) {
      ctx.addIssue({ code: "custom", message: `must be a duration such as 30s, 10m or 1h (got '${text}')` });
      return z.NEVER;
    }
    if (ms < min) {
      ctx.addIssue({ code: "custom", message: `must be at least ${min} ms` });
      return z.NEVER;
    }
    return ms;
  });

const SIZE = /^(\d+)(Ki|Mi|Gi|k|M|G)?$/;
const UNIT_BYTES: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };

/** "64Mi", "512Ki", "1G" or a bare number of bytes (Kubernetes quantity suffixes) -> bytes. */
export function parseSize(text: string): number | undefined {
  const m = SIZE.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * (UNIT_BYTES[m[2] ?? ""] ?? 1);
}

const size = (min: number, max: number, range: string) =>
  z.string().transform((text, ctx) => {
    const bytes = parseSize(text);
    if (bytes === undefined || bytes < min || bytes > max) {
      ctx.addIssue({
        code: "custom",
        message: `must be a size from ${range}, such as 64Mi or 512Ki (got '${text}')`,
      });
      return z.NEVER;
    }
    return bytes;
  });

const bool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no"])])
  .transform((v) => v === true || v === "true" || v === "1" || v === "yes");

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(max, `must be at most ${max}`);

const address = z
  .string()
  .regex(/^[^\s:]*:\d{1,5}$/, "must be host:port, e.g. 127.0.0.1:8080 (port 0 picks a free port)")
  .transform((text) => {
    const i = text.lastIndexOf(":");
    return { host: text.slice(0, i) || "127.0.0.1", port: Number(text.slice(i + 1)) };
  })
  .refine((a) => a.port <= 65535, "port must be at most 65535");

// Label selectors as the apiserver accepts them: `k=v`, `k!=v`, `k in (a,b)`, `!k`, `k`.
const labelSelector = z
  .string()
  .regex(
    /^\s*(!?[A-Za-z0-9./_-]+(\s*(=|==|!=)\s*[A-Za-z0-9._-]*|\s+(in|notin)\s*\([A-Za-z0-9._,\s-]*\))?\s*)(,\s*!?[A-Za-z0-9./_-]+(\s*(=|==|!=)\s*[A-Za-z0-9._-]*|\s+(in|notin)\s*\([A-Za-z0-9._,\s-]*\))?\s*)*$/,
    "must be a Kubernetes label selector such as shard=a or tier in (web,api)",
  );

export const configSchema = z
  .object({
    kubeconfig: z.string().min(1, "must not be empty").optional(),
    inCluster: bool.default(false),
    namespaces: z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((n) => n.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "each namespace must be a DNS label")),
      )
      .default([]),
    concurrency: positiveInt(256).default(8),
    apiConnections: positiveInt(256).default(16),
    // The body and its string must fit V8's largest string (512 MiB) with room to parse it.
    apiMaxResponseBytes: size(2 ** 20, 256 * 2 ** 20, "1Mi to 256Mi").default(DEFAULT_MAX_RESPONSE_BYTES),
    // At most the whole-attempt timeout (60 s): past it the attempt ends anyway.
    apiConnectTimeout: duration(100)
      .pipe(z.number().max(60_000, "must be at most 60s"))
      .default(DEFAULT_TRANSPORT.connectTimeoutMs),
    apiFirstByteTimeout: duration(100)
      .pipe(z.number().max(60_000, "must be at most 60s"))
      .default(DEFAULT_TRANSPORT.firstByteTimeoutMs),
    resync: duration(1000).default(10 * 60_000),
    apiRate: z.coerce
      .number({ error: "must be a number" })
      .positive("must be more than 0")
      .max(10_000, "must be at most 10000")
      .default(20),
    metricsAddress: address.default({ host: "127.0.0.1", port: 8080 }),
    logLevel: z
      .enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"], {
        error: "must be one of trace, debug, info, warn, error, fatal, silent",
      })
      .default("info"),
    leaderElect: bool.default(false),
    leaseName: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "must be a DNS name")
      .default("svc-operator-leader"),
    leaseNamespace: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "must be a DNS label")
      .default("default"),
    leaseDuration: duration(1000).default(15_000),
    labelSelector: labelSelector.optional(),
    // Unset: any endpoint (development). The rule is in the message of a bad entry.
    allowedEndpoints: z
      .string()
      .transform((text, ctx) => {
        try {
          return EndpointAllowlist.parse(text);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      })
      .optional(),
    identity: z.string().min(1).optional(),
    shutdownTimeout: duration(0).default(30_000),
  })
  .strict();

export type OperatorConfig = z.output<typeof configSchema>;

/** Flag name (kebab-case, as on the command line) -> config key and environment variable. */
export const CONFIG_FLAGS = {
  kubeconfig: {
    key: "kubeconfig",
    env: "KUBECONFIG",
    description: "path of the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)",
  },
  "in-cluster": {
    key: "inCluster",
    env: "SVC_OPERATOR_IN_CLUSTER",
    description: "use the pod's service account instead of a kubeconfig",
    boolean: true,
  },
  namespaces: {
    key: "namespaces",
    env: "SVC_OPERATOR_NAMESPACES",
    description: "comma-separated namespaces to watch (default: all)",
  },
  concurrency: {
    key: "concurrency",
    env: "SVC_OPERATOR_CONCURRENCY",
    description: "reconciles running at once",
    default: "8",
  },
  "api-connections": {
    key: "apiConnections",
    env: "SVC_OPERATOR_API_CONNECTIONS",
    description: "service API calls in flight at once per Account (connections to the service)",
    default: "16",
  },
  "api-max-response-bytes": {
    key: "apiMaxResponseBytes",
    env: "SVC_OPERATOR_API_MAX_RESPONSE_BYTES",
    description: "largest service answer read; a longer one fails the call (1Mi to 256Mi)",
    default: "64Mi",
  },
  "api-connect-timeout": {
    key: "apiConnectTimeout",
    env: "SVC_OPERATOR_API_CONNECT_TIMEOUT",
    description: "how long a connection to an Account's endpoint may take to open (100ms to 60s)",
    default: "5s",
  },
  "api-first-byte-timeout": {
    key: "apiFirstByteTimeout",
    env: "SVC_OPERATOR_API_FIRST_BYTE_TIMEOUT",
    description:
      "how long an Account's credentials check and sign-in calls wait for an answer to start, per attempt (100ms to 60s); other calls wait up to 60s",
    default: "5s",
  },
  resync: {
    key: "resync",
    env: "SVC_OPERATOR_RESYNC",
    description: "drift detection period",
    default: "10m",
  },
  "api-rate": {
    key: "apiRate",
    env: "SVC_OPERATOR_API_RATE",
    description: "service API calls per second per account",
    default: "20",
  },
  "metrics-address": {
    key: "metricsAddress",
    env: "SVC_OPERATOR_METRICS_ADDRESS",
    description: "host:port of /metrics, /healthz and /readyz",
    default: "127.0.0.1:8080",
  },
  "log-level": {
    key: "logLevel",
    env: "SVC_OPERATOR_LOG_LEVEL",
    description: "trace, debug, info, warn, error, fatal or silent",
    default: "info",
  },
  "leader-elect": {
    key: "leaderElect",
    env: "SVC_OPERATOR_LEADER_ELECT",
    description: "elect a leader through a coordination.k8s.io Lease",
    boolean: true,
  },
  "lease-name": {
    key: "leaseName",
    env: "SVC_OPERATOR_LEASE_NAME",
    description: "name of the leader election Lease",
    default: "svc-operator-leader",
  },
  "lease-namespace": {
    key: "leaseNamespace",
    env: "SVC_OPERATOR_LEASE_NAMESPACE",
    description: "namespace of the leader election Lease",
    default: "default",
  },
  "lease-duration": {
    key: "leaseDuration",
    env: "SVC_OPERATOR_LEASE_DURATION",
    description: "how long a lease holds without renewal",
    default: "15s",
  },
  "label-selector": {
    key: "labelSelector",
    env: "SVC_OPERATOR_LABEL_SELECTOR",
    description: "only reconcile custom resources matching this label selector (shard between instances)",
  },
  "allowed-endpoints": {
    key: "allowedEndpoints",
    env: "SVC_OPERATOR_ALLOWED_ENDPOINTS",
    description:
      "comma-separated hosts an Account's endpoint and its redirects may reach, e.g. *.example-cloud.com,api.example.com:8443 (default: any)",
  },
  identity: {
    key: "identity",
    env: "SVC_OPERATOR_IDENTITY",
    description:
      "leader election identity, and who made the changes in the audit trail (default: hostname and pid)",
  },
  "shutdown-timeout": {
    key: "shutdownTimeout",
    env: "SVC_OPERATOR_SHUTDOWN_TIMEOUT",
    description: "how long SIGTERM waits for in-flight reconciles",
    default: "30s",
  },
} as const satisfies Record<
  string,
  { key: keyof OperatorConfig; env: string; description: string; default?: string; boolean?: boolean }
>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Merges flags over environment and validates; throws ConfigError naming the flag and variable. */
export function loadConfig(
  flags: Record<string, string | boolean | undefined>,
  env: Record<string, string | undefined>,
): OperatorConfig {
  const raw: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(CONFIG_FLAGS)) {
    const value = flags[name] ?? env[spec.env];
    if (value !== undefined && value !== "") raw[spec.key] = value;
  }
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "");
    const entry = Object.entries(CONFIG_FLAGS).find(([, s]) => s.key === key);
    const where = entry ? `--${entry[0]} (${entry[1].env})` : key || "config";
    return `${where}: ${issue.message}`;
  });
  throw new ConfigError(lines.join("\n"));
}
