import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cloudChoice, deploymentChoice, serviceName } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRows, tableRules } from "../shared/table-kind.ts";

export type IpAddressClient = Pick<ServiceApi, "ipAddresses" | "clouds">;

/**
 * Spec field, API parameter (spec 4.10) and member of the real ip_address media type. The
 * representation has no `cloud` link: the cloud is the collection's (`/api/clouds/:id/ip_addresses`).
 * Update requires `name`, so every update sends it.
 */
export const ipAddressRows: TableRow<IpAddressClient>[] = [
  tableRows.cloud({ read: (o) => o.cloudHref }),
  { ...rows.name(), defaultName: true, always: true },
  { spec: "domain", param: "domain", attribute: "domain", write: "create", empty: "unshown" },
  {
    ...rows.createOnlyLink("networkHref", "network", "network_href"),
    ref: { field: "networkRef", kind: "Network" },
  },
  tableRows.deployment(),
  ...rows.read({ address: "address" }),
];

export const ipAddressSpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud that allocates the address"),
    name: serviceName("IP address"),
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
    ...deploymentChoice("the address"),
  },
  tableRules(ipAddressRows),
  "Desired state of the IP address. The service allocates the address itself (status.atProvider.address).",
);

export type IpAddressSpec = z.output<typeof ipAddressSpecSchema>;
