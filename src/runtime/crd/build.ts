import * as z from "zod";
import type { CrdSource, PrinterColumn } from "../sdk/index.ts";
import { CATEGORY, GROUP, VERSION } from "../sdk/index.ts";
import type { JsonSchema } from "./structural.ts";
import { toStructural } from "./structural.ts";

/** CRDs built from the kinds' schemas: names, printer columns, structural schemas (structural.ts). */

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
