import { accountWide, tableKind } from "../shared/table-kind.ts";
import { SubjectMetrics } from "./metrics.ts";
import { type AlertSpecClient, alertSpecRows, alertSpecSpecSchema } from "./schema.ts";

/** The fields whose values the subject's metrics decide. */
const METRIC_FIELDS = new Set(["file", "variable"]);

/**
 * An alert spec (spec 4.12): a table kind, listed account-wide through `/api/alert_specs`. Before
 * a create, or an update of its file or variable, it checks them against the metrics the subject
 * reports (SubjectMetrics: cached per Account).
 */
export function createAlertSpecKind(options: { metrics?: SubjectMetrics } = {}) {
  const metrics = options.metrics ?? new SubjectMetrics();
  return tableKind({
    kind: "AlertSpec",
    plural: "alertspecs",
    singular: "alertspec",
    shortNames: ["svcalert"],
    description:
      "An alert spec of the cloud-management service: if <file>.<variable> <condition> <threshold> for " +
      "<duration> minutes on the subject (a server template, server, server array or instance), escalate or vote.",
    schema: alertSpecSpecSchema,
    printerColumns: [
      {
        name: "File",
        type: "string",
        jsonPath: ".spec.file",
        description: "Monitoring metric <plugin>/<view>",
      },
      { name: "Variable", type: "string", jsonPath: ".spec.variable", description: "The metric's variable" },
      {
        name: "Subject",
        type: "string",
        jsonPath: ".spec.subjectHref",
        description: "Subject href",
        priority: 1,
      },
    ],
    rows: alertSpecRows,
    resource: (client: AlertSpecClient) => accountWide(client.alertSpecs),
    lookupBy: ["subjectHref", "name"],
    overrides: {
      async beforeWrite(_base, client, desired, fields) {
        if (fields && !fields.some((f) => METRIC_FIELDS.has(f))) return;
        await metrics.check(client, desired);
      },
    },
  });
}

export const alertSpecKind = createAlertSpecKind();
