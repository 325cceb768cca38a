import { linkHref } from "../../api/schemas.ts";
import { DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { perParent, tableKind } from "../shared/table-kind.ts";
import { type IpAddressBindingClient, ipAddressBindingRows, ipAddressBindingSpecSchema } from "./schema.ts";

/**
 * An IP address binding (spec 4.11): a table kind, listed per cloud, replaced on any change (the
 * service has no update). Before a create it checks that a server it names has a current
 * instance, the one thing the service requires that a schema cannot say.
 */
export const ipAddressBindingKind = tableKind({
  kind: "IpAddressBinding",
  plural: "ipaddressbindings",
  singular: "ipaddressbinding",
  shortNames: ["svcipb"],
  description:
    "A binding of a public IP address (or a port forward) to an instance or a server's current instance; " +
    "status.atProvider.recurring says whether it is one-time or applied at each boot. Any change replaces it.",
  schema: ipAddressBindingSpecSchema,
  printerColumns: [
    {
      name: "Recurring",
      type: "boolean",
      jsonPath: ".status.atProvider.recurring",
      description: "Applied at each boot of a next instance (true) or once (false)",
    },
    {
      name: "Instance",
      type: "string",
      jsonPath: ".status.atProvider.instanceHref",
      description: "The instance bound",
      priority: 1,
    },
  ],
  rows: ipAddressBindingRows,
  resource: (client: IpAddressBindingClient) => perParent(client.ipAddressBindings),
  perCloud: "cloudHref",
  lookupBy: ["publicIpAddressHref", "instanceHref"],
  replace: "deleteBeforeCreate",
  overrides: {
    async beforeWrite(_base, client, desired) {
      const server = desired.serverHref as string | undefined;
      if (server === undefined) return;
      if (!linkHref(await client.linksOf(server), "current_instance"))
        throw new DependencyNotReadyError(`spec.serverHref: ${server} has no current instance to bind to`);
    },
  },
});
