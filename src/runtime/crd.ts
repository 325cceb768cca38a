import * as z from "zod";
import type { PrinterColumn } from "./kind.ts";
import { CATEGORY, GROUP, VERSION } from "./names.ts";
import type { JsonSchema } from "./structural.ts";
import { toStructural } from "./structural.ts";

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

const STANDARD_COLUMNS_BEFORE: PrinterColumn[] = [
  {
    name: "Ready",
    type: "string",
    jsonPath: '.status.conditions[?(@.type=="Ready")].status',
    description: "Ready condition",
  },
  {
    name: "Synced",
    type: "string",
    jsonPath: '.status.conditions[?(@.type=="Synced")].status',
    description: "Synced condition",
  },
];
const STANDARD_COLUMNS_AFTER: PrinterColumn[] = [
  { name: "Href", type: "string", jsonPath: ".status.href", description: "Href of the service object" },
  { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
];

export function schemaOf(schema: z.ZodType): JsonSchema {
  return toStructural(
    z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "any" }) as JsonSchema,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: a CRD is plain data
export function buildCrd(source: CrdSource): Record<string, any> {
  const spec = schemaOf(source.spec);
  const status = schemaOf(source.status);
  // A spec with defaults for every field may be omitted; the apiserver defaults `{}` inside it.
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${source.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        kind: source.kind,
        listKind: `${source.kind}List`,
        plural: source.plural,
        singular: source.singular,
        shortNames: source.shortNames,
        categories: [CATEGORY],
      },
      scope: "Namespaced",
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            ...STANDARD_COLUMNS_BEFORE,
            ...(source.printerColumns ?? []),
            ...(source.kind === "Account" ? [] : STANDARD_COLUMNS_AFTER.slice(0, 1)),
            ...STANDARD_COLUMNS_AFTER.slice(1),
          ],
          schema: {
            openAPIV3Schema: {
              type: "object",
              description: source.description,
              required: ["spec"],
              properties: {
                apiVersion: {
                  type: "string",
                  description: "APIVersion of this representation (cloud.svc.io/v1alpha1).",
                },
                kind: { type: "string", description: `Kind of this object (${source.kind}).` },
                metadata: { type: "object" },
                spec,
                status,
              },
            },
          },
        },
      ],
    },
  };
}
