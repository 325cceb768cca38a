import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { href, managedSpec, ref } from "../../runtime/sdk/index.ts";
import { cloudChoice, serviceName } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRows, tableRules } from "../shared/table-kind.ts";

export type NetworkGatewayClient = Pick<ServiceApi, "networkGateways" | "clouds">;

/**
 * Spec field, API parameter (spec 4.9) and member of the real network_gateway media type. Cloud
 * and type are create-only. The attachment is always managed (no network named means detached)
 * and is an update: the update after the first observation attaches it.
 */
export const networkGatewayRows: TableRow<NetworkGatewayClient>[] = [
  // Not a link checked before the create: the kind reads the cloud's capabilities first.
  tableRows.cloud({ param: "cloud_href", link: "cloud", empty: "unshown", linkCheck: false }),
  { spec: "type", param: "type", attribute: "type", write: "create" },
  { ...rows.name(), defaultName: true },
  rows.description(),
  {
    spec: "networkHref",
    ref: { field: "networkRef", kind: "Network" },
    param: "network_href",
    link: "network",
    write: "afterCreate",
    empty: "none",
  },
  ...rows.read({ state: "state", resourceUid: "resource_uid" }),
];

export const networkGatewaySpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud the gateway lives in"),
    name: serviceName("gateway"),
    type: z.enum(["vpn", "internet"]).describe("Gateway type: vpn or internet. Immutable."),
    description: z.string().max(4096).optional().describe("Description of the gateway; empty clears it."),
    networkRef: ref(
      "Network",
      "The Network custom resource to attach the gateway to; waits until it is Ready. Removing it detaches the gateway.",
    ).optional(),
    networkHref: href("a network to attach the gateway to (removing it detaches the gateway)").optional(),
  },
  tableRules(networkGatewayRows),
  "Desired state of the network gateway.",
);

export type NetworkGatewaySpec = z.output<typeof networkGatewaySpecSchema>;
