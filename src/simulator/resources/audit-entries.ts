import * as z from "zod";
import type { RequestContext } from "../context.ts";
import { parameterError, permissionDenied, resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { AUDIT_DATE_FORMAT, parseAuditDate } from "../misc/audit-date.ts";
import { appendChunk, detailSize, joinDetail } from "../misc/audit-detail.ts";
import { HREF_KINDS, type HrefKindName, parseHref } from "../net/hrefs.ts";
import { actions, formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource, type SimulatorApi } from "../resource.ts";
import { access, hasRole, type UserRecord } from "../roles.ts";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import { formats, type ParamRule } from "../validate.ts";

/**
 * Audit entries (spec 4.14): index over a date window, create, update, append (detail
 * chunks ordered by offset) and the detail text as `application/vnd.svc.text`.
 */

export const NOTIFY = ["None", "Notification", "Security", "Error"] as const;
export const MAX_SPAN_DAYS = 93;
const DAY_MS = 86_400_000;

const chunkSchema = z.object({
  offset: z.number().int().nonnegative(),
  text: z.string(),
  seq: z.number().int(),
});

const auditEntrySchema = z.object({
  id: seedId,
  auditee_href: z.string().regex(/^\/api\//, "must be an /api/... href"),
  summary: z.string().min(1).max(255),
  user_email: z.string().min(1),
  notify: z.enum(NOTIFY).default("None"),
  chunks: z.array(chunkSchema).default([]),
  /** Set by update's `offset`: where following appends without their own offset go. */
  append_offset: z.number().int().nonnegative().nullable().default(null),
  created_at: seedTimestamp.default(SEED_TIME_MS),
  updated_at: seedTimestamp.default(SEED_TIME_MS),
});

export type AuditEntryRecord = z.output<typeof auditEntrySchema>;

const COLLECTION = "audit_entries";

// The length (1 to 255 characters) is checked by checkSummary, which can say how long it was.
const summaryRule: ParamRule = { type: "String", blank: false };
const notifyRule: ParamRule = { type: "String", blank: false, values: NOTIFY };
const offsetRule: ParamRule = { type: "Integer", blank: false, min: 0, max: Number.MAX_SAFE_INTEGER };
export const MAX_SUMMARY = 255;

/** Spec 8: a summary has 1 to 255 characters (counted as Unicode code points). */
export function checkSummary(param: string, summary: string | undefined): void {
  if (summary === undefined) return;
  const length = [...summary].length;
  if (length < 1 || length > MAX_SUMMARY) {
    throw parameterError(`${param} must be 1 to ${MAX_SUMMARY} characters (got ${length})`);
  }
}

/** An auditee href of a kind the simulator stores must name an existing object (422 otherwise). */
function checkAuditee(ctx: RequestContext, href: string): void {
  if (!/^\/api\/[^?#]+$/.test(href)) {
    throw parameterError(`audit_entry[auditee_href] must be an href (/api/...) (got '${href}')`);
  }
  const kinds = Object.keys(HREF_KINDS) as HrefKindName[];
  const parsed = parseHref(href, ...kinds);
  if (!parsed) return;
  const kind = HREF_KINDS[parsed.kind];
  if (!ctx.store.collection(kind.collection).get(parsed.id)) throw resourceNotFound(kind.label, parsed.id);
}

const indexSpec = {
  start_date: { type: "String", required: true, blank: false, format: formats.auditDate },
  end_date: { type: "String", required: true, blank: false, format: formats.auditDate },
  limit: { type: "String", required: true, blank: false, format: formats.digits },
} satisfies Record<string, ParamRule>;

const createSpec = {
  audit_entry: {
    type: "Hash",
    required: true,
    blank: false,
    members: {
      auditee_href: { type: "String", required: true, blank: false },
      summary: { ...summaryRule, required: true },
      detail: { type: "String" },
    },
  },
  notify: notifyRule,
  user_email: { type: "String", blank: false },
} satisfies Record<string, ParamRule>;

const updateSpec = {
  audit_entry: {
    type: "Hash",
    required: true,
    blank: false,
    members: { summary: { ...summaryRule, required: true }, offset: offsetRule },
  },
  notify: notifyRule,
} satisfies Record<string, ParamRule>;

const appendSpec = {
  detail: { type: "String" },
  notify: notifyRule,
  offset: offsetRule,
  summary: summaryRule,
} satisfies Record<string, ParamRule>;

const filters: FilterSpec<AuditEntryRecord> = {
  auditee_href: { partial: false, get: (e) => e.auditee_href },
  user_email: { partial: false, get: (e) => e.user_email },
};

export function auditEntryHref(id: string): string {
  return `/api/audit_entries/${id}`;
}

export function representAuditEntry(entry: AuditEntryRecord): Representation {
  const href = auditEntryHref(entry.id);
  return {
    summary: entry.summary,
    user_email: entry.user_email,
    updated_at: formatTimestamp(entry.updated_at),
    detail_size: detailSize(entry.chunks),
    links: [link("self", href), link("auditee", entry.auditee_href), link("detail", `${href}/detail`)],
    actions: actions("append"),
  };
}

/**
 * The index window: both dates in the audit format, end after start, span under 93 days
 * (spec 4.14); limit 1..1000 given as digits.
 */
export function readWindow(params: { start_date: string; end_date: string; limit: string }): {
  startMs: number;
  endMs: number;
  limit: number;
} {
  const startMs = parseAuditDate(params.start_date);
  if (startMs === undefined)
    throw parameterError(
      `start_date must be a real date in ${AUDIT_DATE_FORMAT} (got '${params.start_date}')`,
    );
  const endMs = parseAuditDate(params.end_date);
  if (endMs === undefined)
    throw parameterError(`end_date must be a real date in ${AUDIT_DATE_FORMAT} (got '${params.end_date}')`);
  if (endMs < startMs) throw parameterError("end_date must not be before start_date");
  if (endMs - startMs >= MAX_SPAN_DAYS * DAY_MS) {
    throw parameterError(
      `the span between start_date and end_date must be less than ${MAX_SPAN_DAYS} days (3 months)`,
    );
  }
  const limit = Number(params.limit);
  if (limit < 1 || limit > 1000)
    throw parameterError(`limit must be between 1 and 1000 (got ${params.limit})`);
  return { startMs, endMs, limit };
}

function register(sim: SimulatorApi): void {
  const entries = () => sim.store.collection<AuditEntryRecord>(COLLECTION);
  const find = (ctx: RequestContext) => entries().require(ctx.param("id"), "AuditEntry");
  const read = access.anyOf("observer");
  const write = access.anyOf("actor", "instance");

  sim.route({
    method: "GET",
    path: "/api/audit_entries",
    access: read,
    handler(ctx) {
      ctx.view(["default"]);
      const window = readWindow(
        ctx.validate<{ start_date: string; end_date: string; limit: string }>(indexSpec),
      );
      const inWindow = entries().filter(
        (e) => e.updated_at >= window.startMs && e.updated_at <= window.endMs,
      );
      const list = ctx
        .filter(inWindow, filters)
        // Newest first, then the highest id: the most recent activity is what a reader wants.
        .sort((a, b) => b.updated_at - a.updated_at || Number(b.id) - Number(a.id))
        .slice(0, window.limit);
      return ctx.many("audit_entry", "audit_entries", list.map(representAuditEntry));
    },
  });

  sim.route({
    method: "GET",
    path: "/api/audit_entries/:id",
    access: read,
    handler(ctx) {
      ctx.view(["default"]);
      return ctx.one("audit_entry", representAuditEntry(find(ctx)));
    },
  });

  sim.route({
    method: "GET",
    path: "/api/audit_entries/:id/detail",
    access: read,
    handler(ctx) {
      return ctx.raw(200, "application/vnd.svc.text;charset=utf-8", joinDetail(find(ctx).chunks));
    },
  });

  sim.route({
    method: "POST",
    path: "/api/audit_entries",
    access: write,
    handler(ctx) {
      const {
        audit_entry: written,
        notify,
        user_email,
      } = ctx.validate<{
        audit_entry: { auditee_href: string; summary: string; detail?: string };
        notify?: (typeof NOTIFY)[number];
        user_email?: string;
      }>(createSpec);
      checkSummary("audit_entry[summary]", written.summary);
      checkAuditee(ctx, written.auditee_href);
      if (user_email !== undefined && !hasRole(ctx.store, ctx.userId, "instance")) {
        throw permissionDenied("user_email is only usable with the instance role");
      }
      const email = user_email ?? ctx.store.collection<UserRecord>("users").get(ctx.userId)?.email ?? "";
      const now = ctx.clock.now();
      const stored = entries().insert({
        auditee_href: written.auditee_href,
        summary: written.summary,
        user_email: email,
        notify: notify ?? "None",
        chunks: appendChunk([], written.detail ?? "", 0),
        append_offset: null,
        created_at: now,
        updated_at: now,
      });
      return ctx.created(auditEntryHref(stored.id));
    },
  });

  sim.route({
    method: "PUT",
    path: "/api/audit_entries/:id",
    access: write,
    handler(ctx) {
      const entry = find(ctx);
      const { audit_entry: written, notify } = ctx.validate<{
        audit_entry: { summary: string; offset?: number };
        notify?: (typeof NOTIFY)[number];
      }>(updateSpec);
      checkSummary("audit_entry[summary]", written.summary);
      entry.summary = written.summary;
      if (written.offset !== undefined) entry.append_offset = written.offset;
      if (notify !== undefined) entry.notify = notify;
      entry.updated_at = ctx.clock.now();
      return ctx.noContent();
    },
  });

  sim.route({
    method: "POST",
    path: "/api/audit_entries/:id/append",
    access: write,
    handler(ctx) {
      const entry = find(ctx);
      const { detail, notify, offset, summary } = ctx.validate<{
        detail?: string;
        notify?: (typeof NOTIFY)[number];
        offset?: number;
        summary?: string;
      }>(appendSpec);
      checkSummary("summary", summary);
      entry.chunks = appendChunk(entry.chunks, detail ?? "", offset ?? entry.append_offset ?? undefined);
      if (summary !== undefined) entry.summary = summary;
      if (notify !== undefined) entry.notify = notify;
      entry.updated_at = ctx.clock.now();
      return ctx.noContent();
    },
  });
}

export const auditEntries = defineResource({
  name: "audit_entries",
  collections: { [COLLECTION]: auditEntrySchema },
  defaultSeed: () => ({
    [COLLECTION]: [
      auditEntrySchema.parse({
        id: "1",
        auditee_href: "/api/deployments/1",
        summary: "deployment created",
        user_email: "admin@example.com",
        chunks: [{ offset: 0, text: "Created by the seed.\n", seq: 0 }],
      }),
    ],
  }),
  register,
});
