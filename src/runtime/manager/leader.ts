import type { CoordinationV1Api, V1Lease, V1MicroTime } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { type Clock, systemClock } from "../../lib/index.ts";
import type { RawKube } from "../client/index.ts";
import { kubeTrouble, statusOf, subjectOf } from "../client/index.ts";
import type { ProblemLog } from "../telemetry/index.ts";

export type LeaseApi = Pick<
  CoordinationV1Api,
  "readNamespacedLease" | "createNamespacedLease" | "replaceNamespacedLease"
>;

/**
 * The three Lease calls over RawKube (client-node's generated CoordinationV1Api would load every
 * generated API and model class into the operator).
 */
export function rawLeaseApi(raw: Pick<RawKube, "call">): LeaseApi {
  const path = (namespace: string, name = "") =>
    `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases${name ? `/${encodeURIComponent(name)}` : ""}`;
  const lease = (body: V1Lease) => ({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", ...body });
  return {
    readNamespacedLease: ({ namespace, name }: { namespace: string; name: string }) =>
      raw.call<V1Lease>("GET", path(namespace, name)),
    createNamespacedLease: ({ namespace, body }: { namespace: string; body: V1Lease }) =>
      raw.call<V1Lease>("POST", path(namespace), lease(body)),
    replaceNamespacedLease: ({ namespace, name, body }: { namespace: string; name: string; body: V1Lease }) =>
      raw.call<V1Lease>("PUT", path(namespace, name), lease(body)),
  } as unknown as LeaseApi;
}

/** A Lease's time: RFC 3339 with microseconds, as client-go writes it (what V1MicroTime serializes to). */
function microTime(ms: number): V1MicroTime {
  return new Date(ms).toISOString().replace("Z", "000Z") as unknown as V1MicroTime;
}

export interface LeaderElectionOptions {
  api: LeaseApi;
  namespace: string;
  name: string;
  identity: string;
  /** How long a lease holds without renewal (client-go default 15 s). */
  leaseDurationMs: number;
  /** A leader that cannot renew for this long steps down (default 2/3 of the lease). */
  renewDeadlineMs?: number;
  /** Time between attempts (default 1/7.5 of the lease, like client-go's 2 s for 15 s). */
  retryPeriodMs?: number;
  clock?: Clock;
  log: Logger;
  /** Where a failing election is logged, once per cause, not at every retry period. */
  problems?: ProblemLog;
  /** The apiserver's address, for the line that says it cannot be reached. */
  server?: string;
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection
 * does it (client-node has none): optimistic concurrency on the Lease's
 * resourceVersion; another holder's lease counts as expired only after
 * leaseDuration has passed on *our* clock since we last saw it change (no clock skew).
 */
export class LeaderElector {
  private readonly o: Required<Omit<LeaderElectionOptions, "clock" | "problems" | "server">> &
    Pick<LeaderElectionOptions, "problems" | "server"> & { clock: Clock };
  /** The Lease call in progress (what a failure names). */
  private calling: "get" | "create" | "update" = "get";
  private leading = false;
  private stopped = true;
  private timer: unknown;
  private observed: { holder: string; renew: string; at: number } | undefined;
  private lastRenew = 0;
  private loop: Promise<void> = Promise.resolve();

  constructor(options: LeaderElectionOptions) {
    const d = options.leaseDurationMs;
    this.o = {
      renewDeadlineMs: Math.round((d * 2) / 3),
      retryPeriodMs: Math.max(100, Math.round(d / 7.5)),
      ...options,
      clock: options.clock ?? systemClock,
    };
  }

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.tick();
  }

  /** Stops campaigning; a leader releases the lease so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.o.clock.clearTimeout(this.timer);
    await this.loop;
    if (this.leading) {
      this.setLeading(false);
      await this.release().catch((error: unknown) =>
        this.o.log.warn({ err: error }, "could not release the lease"),
      );
    }
  }

  private tick(): void {
    if (this.stopped) return;
    this.loop = this.attempt().finally(() => {
      if (!this.stopped) this.timer = this.o.clock.setTimeout(() => this.tick(), this.o.retryPeriodMs);
    });
  }

  private async attempt(): Promise<void> {
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
      for (const verb of ["get", "create", "update"]) this.o.problems?.succeeded(subjectOf(this.call(verb)));
    } catch (error) {
      this.failed(error);
    }
    if (this.stopped) return;
    const now = this.o.clock.now();
    if (ok) {
      this.lastRenew = now;
      if (!this.leading) this.setLeading(true);
    } else if (this.leading && now - this.lastRenew >= this.o.renewDeadlineMs) {
      this.setLeading(false);
    } else if (this.leading && this.observed && this.observed.holder !== this.o.identity) {
      this.setLeading(false);
    }
  }

  private call(verb: string) {
    return { verb, resource: "leases.coordination.k8s.io", namespace: this.o.namespace };
  }

  private failed(error: unknown): void {
    const { trouble } = kubeTrouble(this.call(this.calling), error, this.o.server ?? "the apiserver", {
      lease: `${this.o.namespace}/${this.o.name}`,
    });
    if (this.o.problems) this.o.problems.failed(trouble);
    else this.o.log.warn(trouble.fields, `leader election attempt failed: ${trouble.message}`);
  }

  private setLeading(leading: boolean): void {
    this.leading = leading;
    this.o.log.info(
      { identity: this.o.identity, lease: `${this.o.namespace}/${this.o.name}` },
      leading ? "became leader" : "stopped leading",
    );
    if (leading) this.o.onStartedLeading();
    else this.o.onStoppedLeading();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.o.clock.now();
    const { namespace, name, identity } = this.o;
    let lease: V1Lease | undefined;
    try {
      this.calling = "get";
      lease = await this.o.api.readNamespacedLease({ namespace, name });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    const spec = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(this.o.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    if (!lease) {
      try {
        this.calling = "create";
        await this.o.api.createNamespacedLease({ namespace, body: { metadata: { name, namespace }, spec } });
        this.observed = { holder: identity, renew: String(now), at: now };
        return true;
      } catch (error) {
        if (statusOf(error) === 409) return false;
        throw error;
      }
    }
    const holder = lease.spec?.holderIdentity ?? "";
    const renew = String(lease.spec?.renewTime ?? "");
    if (!this.observed || this.observed.holder !== holder || this.observed.renew !== renew) {
      this.observed = { holder, renew, at: now };
    }
    const duration = (lease.spec?.leaseDurationSeconds ?? 15) * 1000;
    if (holder && holder !== identity && now < this.observed.at + duration) return false;
    const transitions = lease.spec?.leaseTransitions ?? 0;
    const body: V1Lease = {
      ...lease,
      spec: {
        ...spec,
        acquireTime:
          holder === identity && lease.spec?.acquireTime ? lease.spec.acquireTime : spec.acquireTime,
        leaseTransitions: holder === identity ? transitions : transitions + 1,
      },
    };
    try {
      this.calling = "update";
      await this.o.api.replaceNamespacedLease({ namespace, name, body });
    } catch (error) {
      if (statusOf(error) === 409) return false;
      throw error;
    }
    this.observed = { holder: identity, renew: String(now), at: now };
    return true;
  }

  private async release(): Promise<void> {
    const { namespace, name, identity } = this.o;
    const lease = await this.o.api.readNamespacedLease({ namespace, name });
    if (lease.spec?.holderIdentity !== identity) return;
    await this.o.api.replaceNamespacedLease({
      namespace,
      name,
      body: {
        ...lease,
        spec: {
          ...lease.spec,
          holderIdentity: "",
          leaseDurationSeconds: 1,
          renewTime: microTime(this.o.clock.now()),
        },
      },
    });
  }
}
