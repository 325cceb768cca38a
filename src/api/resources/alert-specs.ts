import { z } from "zod";
import type { ApiClient } from "../client.ts";
import {
  createIn,
  destroyAt,
  findHrefs,
  type IndexOptions,
  listAll,
  type ShowOptions,
  showOne,
  updateAt,
} from "../resource.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const ALERT_SPECS = "/api/alert_specs";

export const alertSpecSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  created_at: timestampSchema.nullish(),
  updated_at: timestampSchema.nullish(),
  duration: z.number(),
  threshold: z.string(),
  condition: z.string(),
  file: z.string(),
  variable: z.string(),
  escalation_name: z.string().nullish(),
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
  const collection = (subjectHref?: string) => (subjectHref ? `${subjectHref}/alert_specs` : ALERT_SPECS);
  return {
    index: (options?: IndexOptions & { subjectHref?: string; withInherited?: boolean }) =>
      listAll(client, collection(options?.subjectHref), alertSpecSchema, {
        ...options,
        params: {
          ...options?.params,
          with_inherited: options?.withInherited === undefined ? undefined : String(options.withInherited),
        },
      }),
    show: (href: string, options?: ShowOptions) => showOne(client, href, alertSpecSchema, options),
    create: (params: AlertSpecParams, subjectHref?: string) =>
      createIn(
        client,
        collection(subjectHref),
        { alert_spec: params },
        {
          find: () =>
            findHrefs(
              client,
              ALERT_SPECS,
              alertSpecSchema,
              { name: params.name },
              (a) => a.name === params.name,
            ),
        },
      ),
    update: (href: string, params: Partial<Omit<AlertSpecParams, "subject_href">>) =>
      updateAt(client, href, { alert_spec: params }),
    destroy: (href: string) => destroyAt(client, href),
  };
}
