import { accountWide, tableKind } from "../shared/table-kind.ts";
import { type ResourceGroupClient, resourceGroupRows, resourceGroupSpecSchema } from "./schema.ts";

/** A cloud-provider resource group (spec 4.17): a table kind, listed account-wide. */
export const resourceGroupKind = tableKind({
  kind: "ResourceGroup",
  plural: "resourcegroups",
  singular: "resourcegroup",
  shortNames: ["svcrg"],
  description:
    "A cloud-provider resource group of the cloud-management service. Deployments name it (resourceGroupRef); " +
    "it is deleted only after they are gone.",
  schema: resourceGroupSpecSchema,
  printerColumns: [
    {
      name: "State",
      type: "string",
      jsonPath: ".status.atProvider.state",
      description: "State the service reports",
    },
  ],
  rows: resourceGroupRows,
  resource: (client: ResourceGroupClient) => accountWide(client.resourceGroups),
  lookupBy: ["cloudHref", "name"],
  // The real service lists `available` and `unavalable` (sic) as states.
  notReady: (o) =>
    typeof o.state === "string" && o.state !== "available"
      ? `the service reports the resource group as ${o.state}`
      : undefined,
});
