import { isApiError } from "../../api/index.ts";
import { linkHref, selfHref } from "../../api/schemas.ts";
import { DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { ClientCache, type ClientCacheOptions } from "../shared/client-cache.ts";
import type { AlertSpecClient } from "./schema.ts";

/** The metrics a subject reports: the instance they are read from, and each metric's href by file (`plugin/view`). */
export interface Reported {
  instance: string;
  metrics: Map<string, string>;
}

/** Ten minutes back: a window a running instance has points in, naming every variable. */
const RECENT = { start: -600, end: 0 };

/**
 * What alert subjects report, read through the monitoring metrics index (spec 4.18) and kept per
 * Account for a while (`ttlMs`, default 5 minutes), so alerts on one subject cost one index call
 * however many there are, and an alert is checked only when a create or update is about to send
 * its file or variable (ManagedKind.beforeWrite), never on a resync.
 */
export class SubjectMetrics {
  private readonly subjects: ClientCache<Reported | undefined>;
  private readonly variables: ClientCache<string[]>;

  constructor(options: ClientCacheOptions = {}) {
    const cache = { ttlMs: 5 * 60_000, ...options };
    this.subjects = new ClientCache(cache);
    this.variables = new ClientCache(cache);
  }

  /**
   * An instance reports its own metrics (it has a `monitoring_metrics` link), a server those of its
   * current instance; undefined when the subject reports none this account can read (a server
   * template or array, a server not running, an account without the monitoring API).
   */
  reported(client: AlertSpecClient, subject: string): Promise<Reported | undefined> {
    return this.subjects.get(client, subject, () =>
      unseen(async () => {
        const links = await client.linksOf(subject);
        const instance = linkHref(links, "monitoring_metrics")
          ? subject
          : linkHref(links, "current_instance");
        if (!instance) return undefined;
        const list = await client.monitoringMetrics.index(instance);
        if (list.length === 0) return undefined;
        return { instance, metrics: new Map(list.map((m) => [`${m.plugin}/${m.view}`, selfHref(m)])) };
      }),
    );
  }

  /** The variables of a metric, from its recent data. */
  variablesOf(client: AlertSpecClient, metric: string): Promise<string[]> {
    return this.variables.get(client, metric, async () =>
      (await client.monitoringMetrics.data(metric, RECENT)).variables_data.map((v) => v.variable),
    );
  }

  /**
   * Waits (DependencyNotReady naming spec.file or spec.variable, with what the subject reports)
   * when the subject reports metrics and `file` or `variable` is not among them.
   */
  async check(client: AlertSpecClient, alert: Record<string, unknown>): Promise<void> {
    const [subject, file, variable] = [alert.subjectHref, alert.file, alert.variable].map(String) as [
      string,
      string,
      string,
    ];
    const reported = await this.reported(client, subject);
    if (!reported) return;
    const through =
      reported.instance === subject ? "" : ` (through its current instance ${reported.instance})`;
    const metric = reported.metrics.get(file);
    if (!metric) {
      throw new DependencyNotReadyError(
        `spec.file: ${subject}${through} reports no metric ${file}; ` +
          `it reports ${[...reported.metrics.keys()].join(", ")}`,
      );
    }
    const variables = await this.variablesOf(client, metric);
    if (!variables.includes(variable)) {
      throw new DependencyNotReadyError(
        `spec.variable: ${file} of ${subject}${through} has no variable ${variable}; ` +
          `its variables are ${variables.join(", ")}`,
      );
    }
  }
}

/** Undefined where the service does not show the metrics to this account (the subject is gone, no monitoring API). */
async function unseen<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isApiError(error) && (error.kind === "notFound" || error.kind === "unauthorized")) return undefined;
    throw error;
  }
}
