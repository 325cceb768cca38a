import * as z from "zod";
import type { PrinterColumn } from "./kind.ts";

/**
 * The status every custom resource of the operator carries (conditions, observedGeneration, the
 * managed kinds' href, atProvider and the rest), as zod schemas the CRDs are generated from, and
 * what a CRD is generated from (CrdSource).
 */

/** What a CRD is generated from: names, the zod spec and status schemas, printer columns. */
export interface CrdSource {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  description: string;
  spec: z.ZodType;
  status: z.ZodType;
  printerColumns?: PrinterColumn[];
}

export const conditionSchema = z
  .object({
    type: z.string().describe("Ready, Synced, Reconciling or Stalled."),
    status: z.enum(["True", "False", "Unknown"]).describe("Status of the condition."),
    reason: z.string().describe("One-word CamelCase reason for the status."),
    message: z.string().describe("Human-readable detail."),
    lastTransitionTime: z.string().describe("When the status last changed (RFC 3339)."),
    observedGeneration: z
      .number()
      .int()
      .optional()
      .describe("metadata.generation the condition was computed for."),
  })
  .describe("A status condition (kstatus conventions).");

const conditions = z
  .array(conditionSchema)
  .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["type"] })
  .describe("Ready, Synced, Reconciling and Stalled.");

export const commonStatusFields = {
  observedGeneration: z.number().int().optional().describe("metadata.generation last reconciled."),
  conditions: conditions.optional(),
  lastHandledReconcileAt: z
    .string()
    .optional()
    .describe("The value of the cloud.svc.io/reconcile-requested-at annotation last handled."),
};

export const managedStatusSchema = z
  .object({
    href: z.string().optional().describe("Href of the service object."),
    atProvider: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ "x-kubernetes-preserve-unknown-fields": true })
      .describe("The service object as the service reports it."),
    applied: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ "x-kubernetes-preserve-unknown-fields": true })
      .describe("Values of write-only fields (the service does not show them) as last applied."),
    adopted: z
      .boolean()
      .optional()
      .describe("True when the service object already existed and was adopted instead of created."),
    auditEntryHref: z
      .string()
      .optional()
      .describe("Href of the service's audit entry of the operator's changes to the service object."),
    lastDrift: z
      .object({
        time: z.string().describe("When the drift was found and corrected (RFC 3339)."),
        fields: z
          .array(
            z.object({
              field: z.string().describe("The spec field that had drifted."),
              service: z
                .string()
                .describe('The service\'s value before the correction, as JSON ("(none)": no value).'),
            }),
          )
          .describe("The fields the correction put back."),
      })
      .optional()
      .describe("The last drift a resync found in the service and corrected (event DriftCorrected)."),
    replaces: z
      .string()
      .optional()
      .describe("Href of the object a replacement supersedes: deleted once the new object exists."),
    ...commonStatusFields,
  })
  .describe("Observed state.");
