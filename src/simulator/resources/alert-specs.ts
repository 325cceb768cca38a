import * as z from "zod";
import type { RequestContext } from "../context.ts";
import { parameterError, resourceNotFound } from "../errors.ts";
import type { FilterSpec } from "../filters.ts";
import { type AlertSubject, resolveSubject, SUBJECT_KINDS, templateHrefOf } from "../misc/subjects.ts";
import { formatTimestamp, link, type Representation } from "../representation.ts";
import { defineResource, type SimulatorApi } from "../resource.ts";
import { access } from "../roles.ts";
import { SEED_TIME_MS, seedId, seedTimestamp } from "../seed.ts";
import { formats, type ParamRule } from "../validate.ts";

/**
 * Alert specs (spec 4.12) under five path prefixes. The self href is always the flat
 * `/api/alert_specs/:id`, whichever prefix created it; under a subject prefix, index lists the
 * subject's specs (plus its ServerTemplate's with `with_inherited=true`) and show/update/destroy
 * only reach the subject's own specs.
 */

export const CONDITIONS = [">", ">=", "<", "<=", "==", "!="] as const;
export const VOTE_TYPES = ["grow", "shrink"] as const;
const MAX_DURATION = 2_147_483_647;

const alertSpecSchema = z.object({
  id: seedId,
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  duration: z.number().int().nonnegative(),
  threshold: z.string().min(1),
  condition: z.enum(CONDITIONS),
  file: z.string().min(1),
  variable: z.string().min(1),
  escalation_name: z.string().nullable().default(null),
  vote_tag: z.string().nullable().default(null),
  vote_type: z.enum(VOTE_TYPES).nullable().default(null),
  subject_href: z.string().regex(/^\/api\//, "must be an /api/... href"),
  created_at: seedTimestamp.default(SEED_TIME_MS),
  updated_at: seedTimestamp.default(SEED_TIME_MS),
});

export type AlertSpecRecord = z.output<typeof alertSpecSchema>;

const COLLECTION = "alert_specs";

const required = (extra: Partial<ParamRule> = {}): ParamRule => ({
  type: "String",
  required: true,
  blank: false,
  ...extra,
});
const optional = (extra: Partial<ParamRule> = {}): ParamRule => ({ type: "String", ...extra });

const writableMembers = {
  condition: required({ values: CONDITIONS }),
  duration: required({ format: formats.digits }),
  file: required(),
  name: required(),
  threshold: required(),
  variable: required(),
  description: optional(),
  escalation_name: optional(),
  vote_tag: optional(),
  vote_type: optional({ values: VOTE_TYPES }),
} satisfies Record<string, ParamRule>;

const createSpec = {
  alert_spec: {
    type: "Hash",
    required: true,
    blank: false,
    members: { ...writableMembers, subject_href: optional({ blank: false }) },
  },
} satisfies Record<string, ParamRule>;

// update: the same members, all optional, no subject_href; a required-on-create member may
// be left out but not blanked.
const updateSpec = {
  alert_spec: {
    type: "Hash",
    required: true,
    blank: false,
    members: Object.fromEntries(
      Object.entries(writableMembers).map(([name, rule]) => [name, { ...rule, required: false }]),
    ),
  },
} satisfies Record<string, ParamRule>;

const indexSpec = {
  with_inherited: { type: "String", blank: false, values: ["true", "false"] },
} satisfies Record<string, ParamRule>;

const filters: FilterSpec<AlertSpecRecord> = {
  description: { partial: true, get: (s) => s.description },
  escalation_name: { partial: false, get: (s) => s.escalation_name },
  name: { partial: true, get: (s) => s.name },
  subject_href: { partial: false, get: (s) => s.subject_href },
};

type Written = Partial<Record<keyof typeof writableMembers | "subject_href", string>>;

/** The fields a write sets: blank optional strings clear (null), duration becomes an integer. */
export function applyWrite(base: Omit<AlertSpecRecord, "id">, written: Written): Omit<AlertSpecRecord, "id"> {
  const next = { ...base };
  if (written.duration !== undefined) {
    const minutes = Number(written.duration);
    if (minutes > MAX_DURATION)
      throw parameterError(`alert_spec[duration] must be at most ${MAX_DURATION} minutes`);
    next.duration = minutes;
  }
  for (const field of ["name", "threshold", "file", "variable"] as const) {
    if (written[field] !== undefined) next[field] = written[field];
  }
  if (written.condition !== undefined) next.condition = written.condition as AlertSpecRecord["condition"];
  for (const field of ["description", "escalation_name", "vote_tag"] as const) {
    if (written[field] !== undefined) next[field] = written[field] === "" ? null : written[field];
  }
  if (written.vote_type !== undefined) {
    next.vote_type = written.vote_type === "" ? null : (written.vote_type as AlertSpecRecord["vote_type"]);
  }
  checkEscalateOrVote(next);
  return next;
}

/** Spec 4.12: an alert spec must either escalate or vote (and a vote needs its tag). */
export function checkEscalateOrVote(
  spec: Pick<AlertSpecRecord, "escalation_name" | "vote_type" | "vote_tag">,
): void {
  const escalates = spec.escalation_name !== null;
  const votes = spec.vote_type !== null;
  if (escalates && votes) {
    throw parameterError(
      "alert_spec must either escalate or vote, not both: give escalation_name or vote_type, and blank the other",
    );
  }
  if (!escalates && !votes) {
    throw parameterError(
      "alert_spec must either escalate or vote: give escalation_name or vote_type (with vote_tag)",
    );
  }
  if (votes && spec.vote_tag === null)
    throw parameterError("alert_spec[vote_tag] is required when voting (vote_type)");
  if (!votes && spec.vote_tag !== null)
    throw parameterError("alert_spec[vote_tag] is only allowed with vote_type");
}

export function alertSpecHref(id: string): string {
  return `/api/alert_specs/${id}`;
}

export function representAlertSpec(spec: AlertSpecRecord): Representation {
  return {
    name: spec.name,
    description: spec.description,
    created_at: formatTimestamp(spec.created_at),
    updated_at: formatTimestamp(spec.updated_at),
    duration: spec.duration,
    threshold: spec.threshold,
    condition: spec.condition,
    file: spec.file,
    variable: spec.variable,
    escalation_name: spec.escalation_name,
    vote_tag: spec.vote_tag,
    vote_type: spec.vote_type,
    links: [link("self", alertSpecHref(spec.id)), link("subject", spec.subject_href)],
    actions: [],
  };
}

/** One path prefix: how to find its subject (null for the flat `/api/alert_specs`). */
interface Prefix {
  path: string;
  subject: ((ctx: RequestContext) => AlertSubject) | null;
}

const PREFIXES: Prefix[] = [
  { path: "/api/alert_specs", subject: null },
  ...SUBJECT_KINDS.map((kind) => ({
    path: `${kind.pathPrefix}/alert_specs`,
    subject: (ctx: RequestContext) => {
      const href = kind.hrefFromParams(ctx.pathParams);
      const found = resolveSubject(ctx.store, href);
      if (found === "malformed")
        throw new Error(`alert spec prefix ${kind.pathPrefix} built a malformed href ${href}`);
      return found;
    },
  })),
];

function register(sim: SimulatorApi): void {
  const specs = () => sim.store.collection<AlertSpecRecord>(COLLECTION);

  /** The spec `:id` as reached through this prefix (a subject prefix reaches only its own). */
  const find = (ctx: RequestContext, prefix: Prefix): AlertSpecRecord => {
    const subject = prefix.subject?.(ctx);
    const id = ctx.param("id");
    const spec = specs().get(id);
    if (!spec || (subject && spec.subject_href !== subject.href)) throw resourceNotFound("AlertSpec", id);
    return spec;
  };

  for (const prefix of PREFIXES) {
    const read = access.anyOf("observer");
    const write = access.anyOf("actor");

    sim.route({
      method: "GET",
      path: prefix.path,
      access: read,
      handler(ctx) {
        const subject = prefix.subject?.(ctx);
        ctx.view(["default"]);
        const { with_inherited } = ctx.validate<{ with_inherited?: string }>(indexSpec);
        const hrefs = new Set<string>();
        if (subject) {
          hrefs.add(subject.href);
          const template = with_inherited === "true" ? templateHrefOf(subject) : null;
          if (template) hrefs.add(template);
        }
        const candidates = subject ? specs().filter((s) => hrefs.has(s.subject_href)) : specs().values();
        const list = ctx.filter(candidates, filters);
        return ctx.many("alert_spec", "alert_specs", list.map(representAlertSpec));
      },
    });

    sim.route({
      method: "GET",
      path: `${prefix.path}/:id`,
      access: read,
      handler(ctx) {
        ctx.view(["default"]);
        return ctx.one("alert_spec", representAlertSpec(find(ctx, prefix)));
      },
    });

    sim.route({
      method: "POST",
      path: prefix.path,
      access: write,
      handler(ctx) {
        const pathSubject = prefix.subject?.(ctx);
        const { alert_spec: written } = ctx.validate<{ alert_spec: Written }>(createSpec);
        let subjectHref: string;
        if (written.subject_href !== undefined) {
          const found = resolveSubject(ctx.store, written.subject_href);
          if (found === "malformed") {
            throw parameterError(
              "alert_spec[subject_href] must be the href of a ServerTemplate, Server, ServerArray or Instance " +
                `(got '${written.subject_href}')`,
            );
          }
          if (pathSubject && found.href !== pathSubject.href) {
            throw parameterError(
              `alert_spec[subject_href] must be the subject of the path (${pathSubject.href}) or be left out`,
            );
          }
          subjectHref = found.href;
        } else if (pathSubject) {
          subjectHref = pathSubject.href;
        } else {
          throw parameterError("alert_spec[subject_href] is required when creating under /api/alert_specs");
        }
        const now = ctx.clock.now();
        const blank: Omit<AlertSpecRecord, "id"> = {
          name: "",
          description: null,
          duration: 0,
          threshold: "",
          condition: ">",
          file: "",
          variable: "",
          escalation_name: null,
          vote_tag: null,
          vote_type: null,
          subject_href: subjectHref,
          created_at: now,
          updated_at: now,
        };
        const stored = specs().insert(applyWrite(blank, written));
        return ctx.created(alertSpecHref(stored.id));
      },
    });

    sim.route({
      method: "PUT",
      path: `${prefix.path}/:id`,
      access: write,
      handler(ctx) {
        const spec = find(ctx, prefix);
        const { alert_spec: written } = ctx.validate<{ alert_spec: Written }>(updateSpec);
        const { id, ...rest } = spec;
        const next = applyWrite(rest, written);
        Object.assign(spec, next, { updated_at: ctx.clock.now() });
        return ctx.noContent();
      },
    });

    sim.route({
      method: "DELETE",
      path: `${prefix.path}/:id`,
      access: write,
      handler(ctx) {
        specs().delete(find(ctx, prefix).id);
        return ctx.noContent();
      },
    });
  }
}

export const alertSpecs = defineResource({
  name: "alert_specs",
  collections: { [COLLECTION]: alertSpecSchema },
  defaultSeed: () => ({
    [COLLECTION]: [
      alertSpecSchema.parse({
        id: "1",
        name: "cpu busy",
        description: "CPU idle below 10% for 5 minutes",
        duration: 5,
        threshold: "10",
        condition: "<",
        file: "cpu-0/cpu-idle",
        variable: "value",
        escalation_name: "critical",
        subject_href: "/api/server_templates/1",
      }),
      alertSpecSchema.parse({
        id: "2",
        name: "load high",
        duration: 10,
        threshold: "4",
        condition: ">",
        file: "load/load",
        variable: "shortterm",
        vote_tag: "web",
        vote_type: "grow",
        subject_href: "/api/servers/1",
      }),
    ],
  }),
  register,
});
