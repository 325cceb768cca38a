import { tableKind } from "../shared/table-kind.ts";
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
  resource: (client: IpAddressClient) => ({
    show: (href) => client.ipAddresses.show(href),
    index: (cloud, options) => client.ipAddresses.index(cloud, options),
    create: (cloud, params) => client.ipAddresses.create(cloud, params as never),
    update: (href, params) => client.ipAddresses.update(href, params as never),
    destroy: (href) => client.ipAddresses.destroy(href),
  }),
  perCloud: "cloudHref",
  lookupBy: ["name"],
});
