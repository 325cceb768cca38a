import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { type CelRule, href, managedSpec, requiredWhere } from "../../runtime/sdk/index.ts";
import { numeric } from "../shared/observe.ts";
import { serviceName } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRules } from "../shared/table-kind.ts";

export type AlertSpecClient = Pick<ServiceApi, "alertSpecs" | "monitoringMetrics" | "linksOf">;

export const CONDITIONS = [">", ">=", "<", "<=", "==", "!="] as const;

/** A member written as given, shown under the same attribute, updatable. */
const member = (spec: string, param: string, extra: Partial<TableRow> = {}): TableRow => ({
  spec,
  param,
  attribute: param,
  write: "update",
  ...extra,
});

/**
 * Spec field, API parameter (spec 4.12) and member of the real alert_spec media type. The update
 * takes every member but the subject. An alert either escalates or votes: unset, each of the
 * three is none, and switching clears the other with "".
 */
export const alertSpecRows: TableRow<AlertSpecClient>[] = [
  { spec: "subjectHref", param: "subject_href", link: "subject", write: "create" },
  { ...rows.name(), defaultName: true },
  rows.description(),
  member("file", "file"),
  member("variable", "variable"),
  member("condition", "condition"),
  member("threshold", "threshold"),
  member("duration", "duration", { toParam: String, fromApi: numeric }),
  member("escalationName", "escalation_name", { empty: "none" }),
  member("voteTag", "vote_tag", { empty: "none" }),
  member("voteType", "vote_type", { empty: "none" }),
];

const alertRules: CelRule[] = [
  {
    rule: "has(self.escalationName) != has(self.voteType)",
    message: "an alert must either escalate or vote: set escalationName, or voteTag and voteType, not both",
    fieldPath: ".escalationName",
  },
  requiredWhere("voteTag", "has(self.voteTag) == has(self.voteType)", "voteTag and voteType go together"),
];

const text = (description: string) => z.string().min(1).max(255).describe(description);

export const alertSpecSpecSchema = managedSpec(
  {
    subjectHref: href("the alert's subject").describe(
      "Href of the subject: a server template, server, server array or instance. Create-only.",
    ),
    name: serviceName("alert spec"),
    description: z.string().max(4096).optional().describe("Description of the alert spec; empty clears it."),
    file: text(
      "The monitoring metric as <plugin>/<view>, e.g. cpu-0/cpu-idle. Where the subject reports metrics " +
        "(an instance, a server's current instance), it must be one of them.",
    ),
    variable: text(
      "The metric's variable, e.g. value; where the subject reports the metric, one of its variables.",
    ),
    condition: z
      .enum(CONDITIONS)
      .describe("How the variable compares with the threshold: >, >=, <, <=, == or !=."),
    threshold: text('The value compared with, as text (e.g. "10").'),
    duration: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .describe("Minutes the condition must hold before the alert fires."),
    escalationName: text("The escalation the alert triggers (or vote instead).").optional(),
    voteTag: text("The vote tag of the server array voted on (with voteType).").optional(),
    voteType: z.enum(["grow", "shrink"]).optional().describe("grow or shrink: the vote cast (with voteTag)."),
  },
  [...tableRules(alertSpecRows), ...alertRules],
  "Desired state of the alert spec: if <file>.<variable> <condition> <threshold> for <duration> minutes, " +
    "escalate to escalationName or vote.",
);

export type AlertSpecSpec = z.output<typeof alertSpecSpecSchema>;
