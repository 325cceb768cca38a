import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { managedSpec } from "../../runtime/sdk/index.ts";
import { cloudChoice, deploymentChoice, serviceName } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRows, tableRules } from "../shared/table-kind.ts";

export type ResourceGroupClient = Pick<ServiceApi, "resourceGroups" | "clouds">;

/** Spec field, API parameter (spec 4.17) and member of the real resource_group media type. */
export const resourceGroupRows: TableRow<ResourceGroupClient>[] = [
  tableRows.cloud({ param: "cloud_href", link: "cloud", empty: "unshown" }),
  // Update takes no name: create-only.
  { ...rows.name("create"), defaultName: true },
  rows.description(),
  tableRows.deployment(),
  ...rows.read({ state: "state", resourceUid: "resource_uid" }),
];

export const resourceGroupSpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud of the resource group"),
    name: serviceName("resource group", "Create-only."),
    description: z
      .string()
      .max(4096)
      .optional()
      .describe("Description of the resource group; empty clears it."),
    ...deploymentChoice("the resource group"),
  },
  tableRules(resourceGroupRows),
  "Desired state of the cloud-provider resource group.",
);

export type ResourceGroupSpec = z.output<typeof resourceGroupSpecSchema>;
