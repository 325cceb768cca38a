import { z } from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, managedSpec, ref } from "../../runtime/spec.ts";
import { cloudByName } from "../network/schema.ts";
import { cloudByName as cloudRow } from "../shared/cloud.ts";
import { type TableRow, tableRules } from "../shared/table-kind.ts";

export type ResourceGroupClient = Pick<ServiceApi, "resourceGroups" | "clouds">;

/** Spec field, API parameter (spec 4.17) and member of the real resource_group media type. */
export const resourceGroupRows: TableRow<ResourceGroupClient>[] = [
  {
    spec: "cloudHref",
    byName: cloudRow,
    required: true,
    param: "cloud_href",
    link: "cloud",
    write: "create",
    empty: "unshown",
  },
  // Update takes no name: create-only.
  { spec: "name", param: "name", attribute: "name", write: "create", defaultName: true },
  { spec: "description", param: "description", attribute: "description", write: "update", empty: "blank" },
  {
    spec: "deploymentHref",
    ref: { field: "deploymentRef", kind: "Deployment" },
    param: "deployment_href",
    link: "deployment",
    write: "update",
  },
  { spec: "state", attribute: "state", write: "read" },
  { spec: "resourceUid", attribute: "resource_uid", write: "read" },
];

export const resourceGroupSpecSchema = managedSpec(
  {
    cloudHref: href("the cloud of the resource group").optional(),
    cloud: cloudByName.optional(),
    name: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Name of the resource group in the service; defaults to metadata.name. Create-only."),
    description: z
      .string()
      .max(4096)
      .optional()
      .describe("Description of the resource group; empty clears it."),
    deploymentRef: ref(
      "Deployment",
      "A Deployment custom resource the resource group belongs to.",
    ).optional(),
    deploymentHref: href("a deployment the resource group belongs to").optional(),
  },
  tableRules(resourceGroupRows),
  "Desired state of the cloud-provider resource group.",
);

export type ResourceGroupSpec = z.output<typeof resourceGroupSpecSchema>;
