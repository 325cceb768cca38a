import * as z from "zod";
import type { ApiClient } from "../client.ts";
import { type IndexOptions, listAll, type ShowOptions, showOne } from "../resource.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const monitoringMetricSchema = z.looseObject({
  plugin: z.string(),
  view: z.string(),
  /** A GET on it answers a PNG image. */
  graph_href: z.string().nullish(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type MonitoringMetric = z.output<typeof monitoringMetricSchema>;

export const monitoringMetricDataSchema = z.looseObject({
  start: z.union([timestampSchema, z.string()]),
  end: z.union([timestampSchema, z.string()]),
  variables_data: z.array(z.looseObject({ variable: z.string(), points: z.array(z.number().nullable()) })),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type MonitoringMetricData = z.output<typeof monitoringMetricDataSchema>;

export interface GraphParams {
  period?: "now" | "day" | "yday" | "week" | "lweek" | "month" | "quarter" | "year";
  size?: "thumb" | "tiny" | "small" | "large" | "xlarge";
  title?: string;
  tz?: string;
}

/** Metrics of an instance: `<instanceHref>/monitoring_metrics`. */
export function monitoringMetricsApi(client: ApiClient) {
  return {
    index: (instanceHref: string, options?: IndexOptions & { graph?: GraphParams }) =>
      listAll(client, `${instanceHref}/monitoring_metrics`, monitoringMetricSchema, {
        ...options,
        params: { ...options?.params, ...options?.graph },
      }),
    show: (href: string, options?: ShowOptions & { graph?: GraphParams }) =>
      showOne(client, href, monitoringMetricSchema, {
        ...options,
        params: { ...options?.params, ...options?.graph },
      }),
    /** Points between `start` and `end`, seconds relative to now (`-600`, `0`). */
    data: (href: string, window: { start: number; end: number }) =>
      showOne(client, `${href}/data`, monitoringMetricDataSchema, {
        params: { start: String(window.start), end: String(window.end) },
      }),
  };
}
