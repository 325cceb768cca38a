// What `svc-operator run` starts: loaded by its command (command.ts) only when it runs, so that
// the other subcommands never load the operator's manager.
// The module, not the index (which loads every generated class: scripts/build.ts).
import { KubeConfig } from "@kubernetes/client-node/dist/config.js";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { type ApiClientOptions, isOutcomeUnknown, isTerminalApiError, TokenBucket } from "../api/index.ts";
import { accountKind } from "../kinds/account/kind.ts";
import { managedKinds } from "../kinds/index.ts";
import { type CommandIo, listenError, UsageError } from "../lib/cli/index.ts";
import { type Clock, keyed, systemClock } from "../lib/index.ts";
import { AccountController } from "../runtime/accounts/index.ts";
import { CONFIG_FLAGS, ConfigError, loadConfig, type OperatorConfig } from "../runtime/config/index.ts";
import { Operator } from "../runtime/manager/index.ts";
import type { AccountKind, AnyManagedKind } from "../runtime/sdk/index.ts";
import { objectKey } from "../runtime/sdk/index.ts";
import { operatorLogger, operatorRegistry, serviceHint } from "../runtime/telemetry/index.ts";

export interface CreateOperatorOptions {
  config: OperatorConfig;
  kubeConfig: KubeConfig;
  log: Logger;
  registry?: Registry;
  kinds?: AnyManagedKind[];
  clock?: Clock;
  /** Service client options for tests and benchmarks (e.g. an undici dispatcher, faster retries). */
  api?: Pick<ApiClientOptions, "dispatcher" | "retry">;
  serveHealth?: boolean;
}

/** The operator with every real part wired: the service client, the kinds of src/kinds, per-account rate limits. */
export function createOperator(options: CreateOperatorOptions): Operator {
  const registry = options.registry ?? new Registry();
  // One per Account (its clients share it across credential changes), dropped with the Account.
  const buckets = new Map<string, TokenBucket>();
  const rate = options.config.apiRate;
  return new Operator({
    config: options.config,
    kubeConfig: options.kubeConfig,
    kinds: options.kinds ?? managedKinds,
    registry,
    log: options.log,
    clock: options.clock,
    isTerminalApiError,
    isOutcomeUnknown,
    explainServiceError: serviceHint,
    serveHealth: options.serveHealth,
    accounts: (shared) =>
      new AccountController(
        accountKind({
          rateLimit: ({ namespace, name }) => {
            const key = objectKey("Account", namespace, name);
            let bucket = buckets.get(key);
            if (!bucket) {
              bucket = new TokenBucket({ ratePerSecond: rate, burst: Math.max(1, Math.ceil(rate * 2)) });
              buckets.set(key, bucket);
            }
            return bucket;
          },
          forget: ({ namespace, name }) => buckets.delete(objectKey("Account", namespace, name)),
          footprint: () => ({ "accounts.tokenBuckets": keyed(buckets) }),
          onCall: (event) => shared.metrics.apiCall(event),
          logger: options.log,
          dispatcher: options.api?.dispatcher,
          // Connections per service host cap the calls in flight, whatever the reconciles at once.
          transport: {
            connectionsPerHost: options.config.apiConnections,
            maxResponseBytes: options.config.apiMaxResponseBytes,
            connectTimeoutMs: options.config.apiConnectTimeout,
            firstByteTimeoutMs: options.config.apiFirstByteTimeout,
          },
          retry: options.api?.retry,
          allowedEndpoints: options.config.allowedEndpoints,
        }) as AccountKind<unknown, unknown, unknown>,
        {
          store: shared.store,
          kube: shared.kube,
          refs: shared.refs,
          events: shared.events,
          clock: options.clock ?? systemClock,
          log: options.log,
          resyncMs: options.config.resync,
          onVerified: shared.wake,
          lend: shared.lend,
          auditSettled: shared.auditSettled,
          problems: shared.problems,
          explain: serviceHint,
        },
      ),
  });
}

export function loadKubeConfig(config: OperatorConfig): KubeConfig {
  const kc = new KubeConfig();
  const flag = `--kubeconfig (${CONFIG_FLAGS.kubeconfig.env})`;
  const source = config.inCluster
    ? "--in-cluster"
    : config.kubeconfig
      ? `${flag}: ${config.kubeconfig}`
      : "the default kubeconfig";
  try {
    if (config.inCluster) kc.loadFromCluster();
    else if (config.kubeconfig) kc.loadFromFile(config.kubeconfig);
    else kc.loadFromDefault();
  } catch (error) {
    // A missing or unparsable file is a usage error: name where it came from, no stack trace, and
    // no retry (nothing the operator can do about it will make the file appear).
    const { code, message } = error as { code?: unknown; message: string };
    if (code === "ENOENT" && config.kubeconfig && !config.inCluster)
      throw new UsageError(
        `${flag}: cannot read ${config.kubeconfig}: no such file; pass the path of a kubeconfig file (or --in-cluster in a pod)`,
      );
    throw new UsageError(`cannot load ${source}: ${message}`);
  }
  if (!kc.getCurrentCluster())
    throw new UsageError("no Kubernetes cluster configured: pass --kubeconfig or --in-cluster");
  return kc;
}

/** `svc-operator run`: the operator until SIGTERM or SIGINT; flags merged with the environment. */
export async function runOperator(
  options: Record<string, string | boolean | undefined>,
  io: CommandIo,
): Promise<number> {
  let config: OperatorConfig;
  try {
    config = loadConfig(options, io.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const log = operatorLogger(config.logLevel);
  const kubeConfig = loadKubeConfig(config);
  const operator = createOperator({ config, kubeConfig, log, registry: operatorRegistry(io.env) });
  try {
    await operator.start();
  } catch (error) {
    const { host, port } = config.metricsAddress;
    const flag = `--metrics-address (${CONFIG_FLAGS["metrics-address"].env})`;
    const usage = listenError(error, [{ flag, host, port }], flag);
    if (!usage) throw error;
    // Nothing may keep the process alive past the message (the operator's clients, timers).
    await operator.stop(0).catch(() => {});
    throw usage;
  }
  const address = operator.healthAddress;
  log.info(
    { metrics: address ? `http://${address.host}:${address.port}/metrics` : undefined },
    "operator started",
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  log.info({ timeoutMs: config.shutdownTimeout }, "shutting down");
  await operator.stop(config.shutdownTimeout);
  return 0;
}
