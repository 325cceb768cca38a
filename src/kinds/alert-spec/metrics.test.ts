import { describe, expect, it } from "vitest";
import { ApiError, ApiErrorCodes } from "../../api/index.ts";
import { DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { SubjectMetrics } from "./metrics.ts";
import type { AlertSpecClient } from "./schema.ts";

const I1 = "/api/clouds/1/instances/1";
const SERVER = "/api/servers/1";

const metric = (plugin: string, view: string) => ({
  plugin,
  view,
  links: [{ rel: "self", href: `${I1}/monitoring_metrics/${plugin}:${view}` }],
});

/** A fake service: server 1 runs instance 1, which reports two metrics; every call recorded. */
function fake(options: { monitoring?: boolean } = {}) {
  const calls: string[] = [];
  const client = {
    linksOf: async (href: string) => {
      calls.push(`links ${href}`);
      if (href === SERVER) return { links: [{ rel: "current_instance", href: I1 }] };
      if (href === I1) return { links: [{ rel: "monitoring_metrics", href: `${I1}/monitoring_metrics` }] };
      return { links: [{ rel: "self", href }] };
    },
    monitoringMetrics: {
      index: async (instance: string) => {
        calls.push(`metrics ${instance}`);
        if (options.monitoring === false)
          throw new ApiError({
            kind: "unauthorized",
            code: ApiErrorCodes.unauthorized,
            method: "GET",
            href: instance,
            status: 403,
          });
        return [metric("cpu-0", "cpu-idle"), metric("load", "load")];
      },
      data: async (href: string) => {
        calls.push(`data ${href}`);
        const names = href.endsWith("load:load") ? ["shortterm", "midterm", "longterm"] : ["value"];
        return { variables_data: names.map((variable) => ({ variable, points: [1] })) };
      },
    },
  } as unknown as AlertSpecClient;
  return { client, calls };
}

const alert = (subjectHref: string, file: string, variable: string) => ({ subjectHref, file, variable });

describe("SubjectMetrics: an alert's file and variable against what its subject reports", () => {
  it("a server reports its current instance's metrics; a wrong file names spec.file and lists them", async () => {
    const { client } = fake();
    const metrics = new SubjectMetrics();
    await metrics.check(client, alert(SERVER, "load/load", "midterm"));
    const error = await metrics
      .check(client, alert(SERVER, "cpu-0/cpu-busy", "value"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as Error).message).toBe(
      `spec.file: ${SERVER} (through its current instance ${I1}) reports no metric cpu-0/cpu-busy; ` +
        "it reports cpu-0/cpu-idle, load/load",
    );
  });

  it("a wrong variable names spec.variable and lists the metric's variables", async () => {
    const { client } = fake();
    const error = await new SubjectMetrics()
      .check(client, alert(I1, "load/load", "value"))
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `spec.variable: load/load of ${I1} has no variable value; its variables are shortterm, midterm, longterm`,
    );
  });

  it("reads each subject and metric once while fresh, however many alerts name them", async () => {
    let now = 0;
    const { client, calls } = fake();
    const metrics = new SubjectMetrics({ ttlMs: 1_000, now: () => now });
    for (const variable of ["shortterm", "midterm", "longterm"])
      await metrics.check(client, alert(SERVER, "load/load", variable));
    expect(calls).toEqual([`links ${SERVER}`, `metrics ${I1}`, `data ${I1}/monitoring_metrics/load:load`]);
    now = 1_001;
    await metrics.check(client, alert(SERVER, "load/load", "shortterm"));
    expect(calls).toHaveLength(6);
  });

  it("checks nothing where the subject reports no metrics this account can read", async () => {
    const template = fake();
    await new SubjectMetrics().check(template.client, alert("/api/server_templates/1", "any/thing", "x"));
    expect(template.calls).toEqual(["links /api/server_templates/1"]);
    const closed = fake({ monitoring: false });
    await new SubjectMetrics().check(closed.client, alert(I1, "any/thing", "x"));
    expect(closed.calls).toEqual([`links ${I1}`, `metrics ${I1}`]);
  });
});
