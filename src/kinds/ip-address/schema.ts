import { z } from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, managedSpec, ref } from "../../runtime/spec.ts";
import { cloudByName } from "../network/schema.ts";
import { cloudByName as cloudRow } from "../shared/cloud.ts";
import { type TableRow, tableRules } from "../shared/table-kind.ts";

export type IpAddressClient = Pick<ServiceApi, "ipAddresses" | "clouds">;

/**
 * Spec field, API parameter (spec 4.10) and member of the real ip_address media type. The
 * representation has no `cloud` link: the cloud is the collection's (`/api/clouds/:id/ip_addresses`).
 * Update requires `name`, so every update sends it.
 */
export const ipAddressRows: TableRow<IpAddressClient>[] = [
  { spec: "cloudHref", byName: cloudRow, required: true, read: (o) => o.cloudHref, write: "create" },
  { spec: "name", param: "name", attribute: "name", write: "update", defaultName: true, always: true },
  { spec: "domain", param: "domain", attribute: "domain", write: "create", empty: "unshown" },
  {
    spec: "networkHref",
    ref: { field: "networkRef", kind: "Network" },
    param: "network_href",
    link: "network",
    write: "create",
    empty: "unshown",
  },
  {
    spec: "deploymentHref",
    ref: { field: "deploymentRef", kind: "Deployment" },
    param: "deployment_href",
    link: "deployment",
    write: "update",
  },
  { spec: "address", attribute: "address", write: "read" },
];

export const ipAddressSpecSchema = managedSpec(
  {
    cloudHref: href("the cloud that allocates the address").optional(),
    cloud: cloudByName.optional(),
    name: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("Name of the IP address in the service; defaults to metadata.name."),
    domain: z
      .enum(["ec2_classic", "vpc"])
      .optional()
      .describe(
        "ec2_classic or vpc (only on the amazon cloud kind, where the service defaults to ec2_classic). Create-only.",
      ),
    networkRef: ref("Network", "A Network custom resource the address belongs to. Create-only.").optional(),
    networkHref: href("a network")
      .optional()
      .describe(
        "Href of a network the address belongs to (required by open-source stack clouds with networks). Create-only.",
      ),
    deploymentRef: ref("Deployment", "A Deployment custom resource the address belongs to.").optional(),
    deploymentHref: href("a deployment the address belongs to").optional(),
  },
  tableRules(ipAddressRows),
  "Desired state of the IP address. The service allocates the address itself (status.atProvider.address).",
);

export type IpAddressSpec = z.output<typeof ipAddressSpecSchema>;
