import { perParent, tableKind } from "../shared/table-kind.ts";
import { type IpAddressClient, ipAddressRows, ipAddressSpecSchema } from "./schema.ts";

/** A public IP address of a cloud (spec 4.10): a table kind, listed per cloud. */
export const ipAddressKind = tableKind({
  kind: "IpAddress",
  plural: "ipaddresses",
  singular: "ipaddress",
  shortNames: ["svcip"],
  description:
    "A public IP address of the cloud-management service, allocated in a cloud; status.atProvider.address " +
    "shows the address the service allocated.",
  schema: ipAddressSpecSchema,
  printerColumns: [
    {
      name: "Address",
      type: "string",
      jsonPath: ".status.atProvider.address",
      description: "Allocated IPv4 address",
    },
  ],
  rows: ipAddressRows,
  resource: (client: IpAddressClient) => perParent(client.ipAddresses),
  perCloud: "cloudHref",
  lookupBy: ["name"],
});
