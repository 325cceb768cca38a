import type { Server } from "node:http";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Clock } from "../../lib/index.ts";
import type { AccountController } from "../accounts/index.ts";
import type { AuditTrail } from "../audit/index.ts";
import type { InformerSet } from "../cache/index.ts";
import type { EventRecorder, RawKube } from "../client/index.ts";
import type { OperatorConfig } from "../config/index.ts";
import type { MemoryMetrics, ProblemLog } from "../telemetry/index.ts";
import {
  type KindObjects,
  RESOURCE_CONDITION,
  resourceConditionLines,
  startHealthServer,
} from "../telemetry/index.ts";
import { LeaderElector, rawLeaseApi } from "./leader.ts";
import type { Workers } from "./operator-workers.ts";

/** The operator's parts that start and stop, built by the Operator. */
export interface LifecycleParts {
  config: OperatorConfig;
  registry: Registry;
  /** Serve /metrics, /healthz and /readyz. */
  serveHealth: boolean;
  log: Logger;
  clock: Clock;
  problems: ProblemLog;
  identity: string;
  /** The apiserver's address, for the election's failure messages. */
  server: string | undefined;
  lists: RawKube;
  informers: InformerSet;
  configMaps: InformerSet | undefined;
  workers: Workers;
  audit: AuditTrail;
  events: EventRecorder;
  accounts: AccountController;
  memory: MemoryMetrics;
  /** Every kind's cached objects, for the metrics computed when scraped. */
  kindObjects: () => KindObjects[];
}

/**
 * Starting and stopping the operator in order: the health server, the informers, then the workers
 * at once or the Lease election that starts and stops them; on shutdown the in-flight work drains
 * before the lease is released and the clients close.
 */
export class OperatorLifecycle {
  private readonly p: LifecycleParts;
  private readonly elector: LeaderElector | undefined;
  private health: Server | undefined;
  private stopping = false;

  constructor(parts: LifecycleParts) {
    this.p = parts;
    const { config } = parts;
    if (config.leaderElect) {
      this.elector = new LeaderElector({
        api: rawLeaseApi(parts.lists),
        namespace: config.leaseNamespace,
        name: config.leaseName,
        identity: parts.identity,
        leaseDurationMs: config.leaseDuration,
        clock: parts.clock,
        log: parts.log,
        problems: parts.problems,
        server: parts.server,
        onStartedLeading: () => this.startWorkers(),
        onStoppedLeading: () => void this.stopWorkers(),
      });
    }
  }

  get ready(): boolean {
    return this.p.informers.synced && (this.p.configMaps?.synced ?? true) && !this.stopping;
  }

  /** Starts informers (waits for the first list), the health server, then workers or the election. */
  async start(): Promise<void> {
    const { informers, configMaps } = this.p;
    if (this.p.serveHealth) {
      const { host, port } = this.p.config.metricsAddress;
      this.health = await startHealthServer({
        registry: this.p.registry,
        host,
        port,
        ready: () => this.ready,
        notReady: () =>
          this.stopping ? ["shutting down"] : [...informers.notReady(), ...(configMaps?.notReady() ?? [])],
        healthy: () => !this.stopping,
        extraNames: [RESOURCE_CONDITION.name],
        extra: () => resourceConditionLines(this.p.kindObjects()),
        log: this.p.log,
      });
    }
    await Promise.all([informers.start(), configMaps?.start()]);
    if (this.elector) this.elector.start();
    else this.startWorkers();
  }

  /** The address /metrics is served on (port 0 picks a free one). */
  get healthAddress(): { host: string; port: number } | undefined {
    const a = this.health?.address();
    return a && typeof a === "object" ? { host: a.address, port: a.port } : undefined;
  }

  /** Stops taking work, waits up to `timeoutMs` for in-flight reconciles, releases the lease. */
  async stop(timeoutMs = this.p.config.shutdownTimeout): Promise<void> {
    this.stopping = true;
    const deadline = Date.now() + timeoutMs;
    // Drain in-flight reconciles while still holding the lease, then release it.
    await this.stopWorkers(timeoutMs);
    // The audit calls of the last reconciles, while their Accounts' clients are still open (at
    // least a second of the shutdown budget: they are usually done in a few milliseconds).
    await this.p.audit.drain(Math.max(1_000, deadline - Date.now()));
    if (this.elector) await this.elector.stop();
    await this.p.informers.stop();
    await this.p.configMaps?.stop();
    await this.p.lists.close();
    await this.p.events.flush();
    await this.p.accounts.close();
    this.p.problems.close();
    this.p.memory.stop();
    await new Promise<void>((resolve) => (this.health ? this.health.close(() => resolve()) : resolve()));
    this.health?.closeAllConnections?.();
  }

  private startWorkers(): void {
    if (this.stopping) return;
    this.p.workers.start();
  }

  private stopWorkers(timeoutMs = this.p.config.shutdownTimeout): Promise<void> {
    return this.p.workers.stop(timeoutMs);
  }
}
