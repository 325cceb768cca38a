import * as z from "zod";
import type { ApiClient } from "../client.ts";
import type { Filters } from "../encoding.ts";
import { createIn, listAll, postAction, type ShowOptions, showOne, updateAt } from "../resource.ts";
import { actionsSchema, linksSchema, timestampSchema } from "../schemas.ts";

export const AUDIT_ENTRIES = "/api/audit_entries";

export const auditEntrySchema = z.looseObject({
  summary: z.string(),
  user_email: z.string().nullish(),
  updated_at: timestampSchema.nullish(),
  detail_size: z.number(),
  links: linksSchema,
  actions: actionsSchema.optional(),
});
export type AuditEntry = z.output<typeof auditEntrySchema>;

export type Notify = "None" | "Notification" | "Security" | "Error";

export interface AuditIndexQuery {
  /** `YYYY/MM/DD HH:MM:SS +ZZZZ`; the span must be under 93 days. */
  start_date: string;
  end_date: string;
  /** 1 to 1000. */
  limit: number;
  filter?: Filters;
}

export function auditEntriesApi(client: ApiClient) {
  return {
    index: (query: AuditIndexQuery) =>
      listAll(client, AUDIT_ENTRIES, auditEntrySchema, {
        params: { start_date: query.start_date, end_date: query.end_date, limit: String(query.limit) },
        filter: query.filter,
      }),
    show: (href: string, options?: ShowOptions) => showOne(client, href, auditEntrySchema, options),
    /** Audit entries have no natural key, so a create without Location cannot be looked up. */
    create: (params: { auditee_href: string; summary: string; detail?: string }, notify?: Notify) =>
      createIn(client, AUDIT_ENTRIES, { audit_entry: params, notify }),
    update: (href: string, params: { summary: string; offset?: number }, notify?: Notify) =>
      updateAt(client, href, { audit_entry: params, notify }),
    /**
     * Appends one detail chunk. Not retried: a repeated append would store the chunk twice
     * (each call is one chunk, even at the same offset).
     */
    append: async (
      href: string,
      params: { detail?: string; offset?: number; summary?: string; notify?: Notify },
    ) => {
      await postAction(client, href, "append", params, false);
    },
    /** The joined detail text (`application/vnd.svc.text`). */
    detail: async (href: string) => (await client.call({ method: "GET", path: `${href}/detail` })).body,
  };
}
