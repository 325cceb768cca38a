import type { RequestContext } from "../context.ts";
import { parameterError, resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { GRAPH_SIZES, type GraphSize, renderGraph } from "../misc/graph-png.ts";
import {
  METRIC_CATALOG,
  type MetricDefinition,
  type MetricWindow,
  metricId,
  metricPoints,
  relativeWindow,
  sampleTimes,
} from "../misc/metric-data.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource, type SimulatorApi } from "../resource.ts";
import { access } from "../roles.ts";
import type { StoredObject } from "../store.ts";
import type { ParamRule } from "../validate.ts";

/**
 * Monitoring metrics (spec 4.18) of the instances of the store. They are not stored: every
 * running instance (state `operational` or `running`) reports the metrics of METRIC_CATALOG,
 * and their data is computed from the instance and the time (deterministic). `graph_href`
 * points at a PNG served outside the API (GRAPH_PREFIX), without login, like the real
 * service's graph host.
 */

export const PERIODS = ["now", "day", "yday", "week", "lweek", "month", "quarter", "year"] as const;
export const SIZES = Object.keys(GRAPH_SIZES) as GraphSize[];
export const DEFAULT_TZ = "America/Los_Angeles";
export const GRAPH_PREFIX = "/graphs/clouds";
const RUNNING = new Set(["operational", "running"]);

type Period = (typeof PERIODS)[number];

/** The window a graph period shows, relative to now (seconds; start inclusive, end exclusive). */
export const PERIOD_WINDOWS: Record<Period, { start: number; end: number }> = {
  now: { start: -3600, end: 0 },
  day: { start: -86_400, end: 0 },
  yday: { start: -2 * 86_400, end: -86_400 },
  week: { start: -7 * 86_400, end: 0 },
  lweek: { start: -14 * 86_400, end: -7 * 86_400 },
  month: { start: -30 * 86_400, end: 0 },
  quarter: { start: -91 * 86_400, end: 0 },
  year: { start: -365 * 86_400, end: 0 },
};

const MAX_TITLE = 255;

const graphSpec = {
  period: { type: "String", blank: false, values: PERIODS },
  size: { type: "String", blank: false, values: SIZES },
  title: { type: "String" },
  tz: { type: "String", blank: false },
} satisfies Record<string, ParamRule>;

interface GraphParams {
  period: Period;
  size: GraphSize;
  title: string;
  tz: string;
}

/** Reads and checks the graph parameters of index/show (and of the graph URL itself). */
export function readGraphParams(params: {
  period?: string;
  size?: string;
  title?: string;
  tz?: string;
}): GraphParams {
  const tz = params.tz ?? DEFAULT_TZ;
  if (!isTimeZone(tz))
    throw parameterError(`tz must be a time zone name such as America/Los_Angeles or UTC (got '${tz}')`);
  const title = params.title ?? "";
  if ([...title].length > MAX_TITLE) throw parameterError(`title must be at most ${MAX_TITLE} characters`);
  return {
    period: (params.period ?? "day") as Period,
    size: (params.size ?? "small") as GraphSize,
    title,
    tz,
  };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `start` / `end` of data: `0` or a negative integer with a leading minus (seconds from now). */
const RELATIVE = /^(0|-[1-9]\d{0,9})$/;
const dataSpec = {
  start: { type: "String", required: true, blank: false },
  end: { type: "String", required: true, blank: false },
} satisfies Record<string, ParamRule>;

export function readDataWindow(params: { start: string; end: string }): { start: number; end: number } {
  for (const name of ["start", "end"] as const) {
    if (!RELATIVE.test(params[name])) {
      throw parameterError(
        `${name} must be 0 or a negative integer of seconds relative to now, e.g. -600 (got '${params[name]}')`,
      );
    }
  }
  const start = Number(params.start);
  const end = Number(params.end);
  if (start > end) throw parameterError(`start must not be after end (got start ${start}, end ${end})`);
  return { start, end };
}

type InstanceRecord = StoredObject & { cloud_id?: string | number; state?: string };

const filters: FilterSpec<MetricDefinition> = {
  plugin: { partial: false, get: (m) => m.plugin },
  view: { partial: false, get: (m) => m.view },
};

function instanceHref(cloudId: string, instanceId: string): string {
  return `/api/clouds/${cloudId}/instances/${instanceId}`;
}

function register(sim: SimulatorApi): void {
  const base = "/api/clouds/:cloud_id/instances/:instance_id/monitoring_metrics";
  const needs = access.withSettings(["observer"], ["monitoring_api"]);

  const instance = (ctx: RequestContext): InstanceRecord => {
    const cloudId = ctx.param("cloud_id");
    ctx.store.collection("clouds").require(cloudId, "Cloud");
    const id = ctx.param("instance_id");
    const found = ctx.store.collection<InstanceRecord>("instances").get(id);
    if (!found || (found.cloud_id !== undefined && String(found.cloud_id) !== cloudId)) {
      throw resourceNotFound("Instance", id);
    }
    return found;
  };
  const metricsOf = (found: InstanceRecord) =>
    found.state === undefined || RUNNING.has(found.state) ? METRIC_CATALOG : [];
  const findMetric = (ctx: RequestContext, found: InstanceRecord): MetricDefinition => {
    const id = ctx.param("id");
    const metric = metricsOf(found).find((m) => metricId(m) === id);
    if (!metric) throw resourceNotFound("MonitoringMetric", id);
    return metric;
  };
  const metricHref = (ctx: RequestContext, metric: MetricDefinition) =>
    `${instanceHref(ctx.param("cloud_id"), ctx.param("instance_id"))}/monitoring_metrics/${encodeURIComponent(metricId(metric))}`;

  const represent = (ctx: RequestContext, metric: MetricDefinition, graph: GraphParams): Representation => {
    const href = metricHref(ctx, metric);
    const query = new URLSearchParams({ period: graph.period, size: graph.size, tz: graph.tz });
    if (graph.title !== "") query.set("title", graph.title);
    const host = ctx.headers.host ? `http://${ctx.headers.host}` : sim.urls.primary;
    const graphPath = `${GRAPH_PREFIX}/${ctx.param("cloud_id")}/instances/${ctx.param("instance_id")}/monitoring_metrics/${encodeURIComponent(metricId(metric))}`;
    return {
      plugin: metric.plugin,
      view: metric.view,
      graph_href: `${host}${graphPath}?${query}`,
      links: [link("self", href), link("data", `${href}/data`)],
      actions: [],
    };
  };

  sim.route({
    method: "GET",
    path: base,
    access: needs,
    handler(ctx) {
      const found = instance(ctx);
      ctx.view(["default"]);
      const graph = readGraphParams(ctx.validate(graphSpec));
      const list = ctx.filter(metricsOf(found), filters);
      return ctx.many(
        "monitoring_metric",
        "monitoring_metrics",
        list.map((m) => represent(ctx, m, graph)),
      );
    },
  });

  sim.route({
    method: "GET",
    path: `${base}/:id`,
    access: needs,
    handler(ctx) {
      const found = instance(ctx);
      ctx.view(["default"]);
      const graph = readGraphParams(ctx.validate(graphSpec));
      return ctx.one("monitoring_metric", represent(ctx, findMetric(ctx, found), graph));
    },
  });

  sim.route({
    method: "GET",
    path: `${base}/:id/data`,
    access: needs,
    handler(ctx) {
      const found = instance(ctx);
      const metric = findMetric(ctx, found);
      const relative = readDataWindow(ctx.validate<{ start: string; end: string }>(dataSpec));
      const window = relativeWindow(ctx.clock.now(), relative.start, relative.end);
      const self = `${metricHref(ctx, metric)}/data`;
      return ctx.one("monitoring_metric_data", representData(ctx, self, metric, found, window));
    },
  });

  sim.route({
    method: "GET",
    path: `${GRAPH_PREFIX}/:cloud_id/instances/:instance_id/monitoring_metrics/:id`,
    access: "public",
    raw: true,
    handler(ctx) {
      const found = instance(ctx);
      const metric = findMetric(ctx, found);
      const graph = readGraphParams(ctx.validate(graphSpec));
      const span = PERIOD_WINDOWS[graph.period];
      const window = relativeWindow(ctx.clock.now(), span.start, span.end);
      const png = renderGraph({
        size: graph.size,
        variables: metricPoints(metric, seedOf(found), sampleTimes(window)),
        text: { Title: graph.title || metricId(metric), Period: graph.period, Timezone: graph.tz },
      });
      return ctx.raw(200, "image/png", png, { "cache-control": "no-cache" });
    },
  });
}

function seedOf(found: InstanceRecord): string {
  return `${String(found.cloud_id ?? "")}/${found.id}`;
}

function representData(
  ctx: RequestContext,
  self: string,
  metric: MetricDefinition,
  found: InstanceRecord,
  window: MetricWindow,
): Representation {
  const times = sampleTimes(window);
  const startMs = window.startSeconds * 1000;
  const endMs = window.endSeconds * 1000;
  // Spec 2.2: start/end "text formatting differs in XML": XML carries ISO 8601.
  const stamp = (ms: number) =>
    ctx.format === "xml" ? new Date(ms).toISOString().replace(".000", "") : formatTimestamp(ms);
  return {
    start: stamp(startMs),
    end: stamp(endMs),
    variables_data: metricPoints(metric, seedOf(found), times),
    links: [link("self", self)],
    actions: [],
  };
}

export const monitoringMetrics = defineResource({
  name: "monitoring_metrics",
  collections: {},
  register,
});
