import * as z from "zod";
import type { ServiceApi } from "../../api/index.ts";
import { type CelRule, exactlyOne, href, managedSpec, ref, requiredWhere } from "../../runtime/sdk/index.ts";
import { numeric } from "../shared/observe.ts";
import { cloudChoice } from "../shared/spec-fields.ts";
import { rows } from "../shared/table.ts";
import { type TableRow, tableRows, tableRules } from "../shared/table-kind.ts";

export type IpAddressBindingClient = Pick<ServiceApi, "ipAddressBindings" | "clouds" | "linksOf">;

/** A port: sent as digits, shown as a number or digits. */
const port = (spec: string, param: string): TableRow => ({
  spec,
  param,
  attribute: param,
  write: "create",
  toParam: String,
  fromApi: numeric,
});

/**
 * Spec field, API parameter (spec 4.11) and member of the real ip_address_binding media type.
 * The service has no update: every row is create-only and a change replaces the binding. The
 * representation has no `cloud` link (the cloud is the collection's), and shows the instance
 * bound, not the server named: `serverHref` is compared with what was applied.
 */
export const ipAddressBindingRows: TableRow<IpAddressBindingClient>[] = [
  tableRows.cloud({ read: (o) => o.cloudHref }),
  {
    spec: "publicIpAddressHref",
    ref: { field: "ipAddressRef", kind: "IpAddress" },
    param: "public_ip_address_href",
    link: "ip_address",
    filter: "ip_address_href",
    write: "create",
  },
  { spec: "instanceHref", param: "instance_href", link: "instance", write: "create" },
  { spec: "serverHref", param: "server_href", write: "create" },
  port("publicPort", "public_port"),
  // The service defaults the private port to the public one: so does the desired state.
  { ...port("privatePort", "private_port"), desired: (d) => d.privatePort ?? d.publicPort },
  { spec: "protocol", param: "protocol", attribute: "protocol", write: "create" },
  ...rows.read({ recurring: "recurring" }),
];

/** Spec 4.11's rules beyond the pairs: the address unless port forwarding, the port fields together. */
const bindingRules: CelRule[] = [
  { ...exactlyOne(["instanceHref", "serverHref"]), fieldPath: ".instanceHref" },
  requiredWhere(
    "publicIpAddressHref",
    "has(self.ipAddressRef) || has(self.publicIpAddressHref) || has(self.publicPort)",
    "publicIpAddressHref or ipAddressRef is required unless port forwarding (publicPort, protocol) is given",
  ),
  requiredWhere(
    "protocol",
    "!has(self.publicPort) || has(self.protocol)",
    "protocol is required with publicPort: port forwarding takes publicPort, protocol and privatePort together",
  ),
  requiredWhere(
    "publicPort",
    "has(self.publicPort) || !(has(self.protocol) || has(self.privatePort))",
    "publicPort is required with protocol or privatePort: port forwarding takes the three together",
  ),
];

const portField = (what: string) =>
  z.number().int().min(1).max(65535).optional().describe(`${what} (1-65535), for port forwarding.`);

export const ipAddressBindingSpecSchema = managedSpec(
  {
    ...cloudChoice("the cloud of the binding"),
    ipAddressRef: ref(
      "IpAddress",
      "An IpAddress custom resource to bind; waits until it is Ready.",
    ).optional(),
    publicIpAddressHref: href("the public IP address to bind")
      .optional()
      .describe("Href of the public IP address to bind; required unless port forwarding is given."),
    instanceHref: href("the instance to bind to")
      .optional()
      .describe(
        "Href of the instance to bind to: a running (current) instance gets a one-time binding, a next " +
          "instance a recurring one (status.atProvider.recurring).",
      ),
    serverHref: href("a server whose current instance is bound")
      .optional()
      .describe("Href of a server whose current instance is bound (one-time); waits while it has none."),
    publicPort: portField("Incoming port"),
    privatePort: portField("Target port on the instance; defaults to publicPort"),
    protocol: z.enum(["UDP", "TCP"]).optional().describe("UDP or TCP, for port forwarding."),
  },
  [...tableRules(ipAddressBindingRows, { replaced: true }), ...bindingRules],
  "Desired state of the IP address binding. The service cannot update a binding: any change replaces it " +
    "(delete, then create).",
);

export type IpAddressBindingSpec = z.output<typeof ipAddressBindingSpecSchema>;
