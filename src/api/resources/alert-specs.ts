import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { IndexOptions } from "../resource.ts";
import { resourceOps } from "../resource-ops.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const ALERT_SPECS = "/api/alert_specs";

export const alertSpecSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  /** Minutes; an integer (the JSON type is not shown: digits read too). */
  duration: z.union([z.number(), z.string()]),
  threshold: z.string(),
  condition: z.string(),
  file: z.string(),
  variable: z.string(),
  escalation_name: z.string().nullish(),
  vote_tag: z.string().nullish(),
  vote_type: z.string().nullish(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type AlertSpec = z.output<typeof alertSpecSchema>;

export interface AlertSpecParams {
  condition: ">" | ">=" | "<" | "<=" | "==" | "!=";
  /** Minutes. */
  duration: number;
  file: string;
  name: string;
  threshold: string;
  variable: string;
  description?: string;
  escalation_name?: string;
  subject_href?: string;
  vote_tag?: string;
  vote_type?: "grow" | "shrink";
}

/**
 * Alert specs, flat (`/api/alert_specs`) or under a subject (server, server array,
 * server template or instance href): `<subjectHref>/alert_specs`.
 */
export function alertSpecsApi(client: ApiClient) {
  const ops = resourceOps(client, "alert_spec", alertSpecSchema);
  const collection = (subjectHref?: string) => (subjectHref ? `${subjectHref}/alert_specs` : ALERT_SPECS);
  return {
    index: (options?: IndexOptions & { subjectHref?: string; withInherited?: boolean }) =>
      ops.index(collection(options?.subjectHref), {
        ...options,
        params: {
          ...options?.params,
          with_inherited: options?.withInherited === undefined ? undefined : String(options.withInherited),
        },
      }),
    show: ops.show,
    create: (params: AlertSpecParams, subjectHref?: string) =>
      ops.create(collection(subjectHref), params, {
        path: ALERT_SPECS,
        filter: { name: params.name },
        match: (a) => a.name === params.name,
      }),
    update: (href: string, params: Partial<Omit<AlertSpecParams, "subject_href">>) =>
      ops.update(href, params),
    destroy: ops.destroy,
  };
}
