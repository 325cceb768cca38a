import type { Harness } from "./harness.ts";
import { create } from "./net-helpers.ts";
import type { Sample } from "./route-samples.ts";

// The routes of the network and storage modules (SIM-NET), with what each call needs.
const NETWORK = { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16" };
const IP_ROUTE = {
  route_table_href: "/api/route_tables/1",
  destination_cidr_block: "10.9.0.0/16",
  next_hop_type: "ip_string",
  next_hop_ip: "10.0.0.9",
};
/** Network 1 (default route table 1), subnets 1 (cloud) and 2 (instance 1), gateway 1, route 1. */
async function networkStack(h: Harness): Promise<void> {
  await create(h, "/api/networks", { network: NETWORK });
  await create(h, "/api/clouds/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.1.0/24" },
  });
  await create(h, "/api/clouds/1/instances/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.2.0/24" },
  });
  await create(h, "/api/network_gateways", {
    network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
  });
  await create(h, "/api/routes", { route: IP_ROUTE });
}
const network = { setup: (h: Harness) => create(h, "/api/networks", { network: NETWORK }) };
const stack = { setup: networkStack };
/** Network 1 and route table 2, which nothing uses. */
const spareTable = {
  setup: async (h: Harness) => {
    await network.setup(h);
    await create(h, "/api/route_tables", {
      route_table: { cloud_href: "/api/clouds/1", network_href: "/api/networks/1", name: "spare" },
    });
  },
};
const volume2 = {
  setup: (h: Harness) =>
    create(h, "/api/clouds/1/volumes", {
      volume: { name: "spare", size: "1", datacenter_href: "/api/clouds/1/datacenters/1" },
    }),
};
const RVA = { device: "/dev/xvdb", runnable_href: "/api/servers/1" };
const onVolume = { ...RVA, storage_href: "/api/clouds/1/volumes/1" };
const onSnapshot = { ...RVA, storage_href: "/api/clouds/1/volume_snapshots/1" };
/** RVA 1 on volume 1, RVA 2 on snapshot 1. */
const attachments = {
  setup: async (h: Harness) => {
    await create(h, "/api/clouds/1/recurring_volume_attachments", { recurring_volume_attachment: onVolume });
    await create(h, "/api/clouds/1/recurring_volume_attachments", {
      recurring_volume_attachment: onSnapshot,
    });
  },
};
const ip = {
  setup: (h: Harness) => create(h, "/api/clouds/1/ip_addresses", { ip_address: { name: "pub-1" } }),
};
const BINDING = {
  instance_href: "/api/clouds/1/instances/1",
  public_ip_address_href: "/api/clouds/1/ip_addresses/1",
};
const binding = {
  setup: async (h: Harness) => {
    await ip.setup(h);
    await create(h, "/api/clouds/1/ip_address_bindings", { ip_address_binding: BINDING });
  },
};
const group = {
  setup: (h: Harness) =>
    create(h, "/api/resource_groups", { resource_group: { cloud_href: "/api/clouds/1", name: "rg" } }),
};

export const NET_SAMPLES: Sample[] = [
  ["GET", "/api/networks", "/api/networks", 200, {}, network],
  ["GET", "/api/networks/:id", "/api/networks/1", 200, {}, network],
  ["POST", "/api/networks", "/api/networks", 201, { form: { network: NETWORK } }],
  ["PUT", "/api/networks/:id", "/api/networks/1", 204, { form: { network: { name: "n" } } }, network],
  ["DELETE", "/api/networks/:id", "/api/networks/1", 204, {}, network],
  ["GET", "/api/route_tables", "/api/route_tables", 200, {}, network],
  ["GET", "/api/route_tables/:id", "/api/route_tables/1", 200, {}, network],
  [
    "POST",
    "/api/route_tables",
    "/api/route_tables",
    201,
    { form: { route_table: { cloud_href: "/api/clouds/1", network_href: "/api/networks/1", name: "t" } } },
    network,
  ],
  [
    "PUT",
    "/api/route_tables/:id",
    "/api/route_tables/1",
    204,
    { form: { route_table: { name: "t" } } },
    network,
  ],
  ["DELETE", "/api/route_tables/:id", "/api/route_tables/2", 204, {}, spareTable],
  ...(["/api/clouds/:cloud_id", "/api/clouds/:cloud_id/instances/:instance_id"] as const).flatMap(
    (template, i): Sample[] => {
      const prefix = ["/api/clouds/1", "/api/clouds/1/instances/1"][i]!;
      const id = String(i + 1);
      return [
        ["GET", `${template}/subnets`, `${prefix}/subnets`, 200, {}, stack],
        ["GET", `${template}/subnets/:id`, `${prefix}/subnets/${id}`, 200, {}, stack],
        [
          "POST",
          `${template}/subnets`,
          `${prefix}/subnets`,
          201,
          { form: { subnet: { network_href: "/api/networks/1", cidr_block: "10.0.3.0/24" } } },
          network,
        ],
        [
          "PUT",
          `${template}/subnets/:id`,
          `${prefix}/subnets/${id}`,
          204,
          { form: { subnet: { name: "s" } } },
          stack,
        ],
        ["DELETE", `${template}/subnets/:id`, `${prefix}/subnets/${id}`, 204, {}, stack],
      ];
    },
  ),
  ["GET", "/api/network_gateways", "/api/network_gateways", 200, {}, stack],
  ["GET", "/api/network_gateways/:id", "/api/network_gateways/1", 200, {}, stack],
  [
    "POST",
    "/api/network_gateways",
    "/api/network_gateways",
    201,
    { form: { network_gateway: { cloud_href: "/api/clouds/1", name: "g", type: "vpn" } } },
  ],
  [
    "PUT",
    "/api/network_gateways/:id",
    "/api/network_gateways/1",
    204,
    { form: { network_gateway: { network_href: "/api/networks/1" } } },
    stack,
  ],
  ["DELETE", "/api/network_gateways/:id", "/api/network_gateways/1", 204, {}, stack],
  ...(["/api/route_tables/:route_table_id", "/api"] as const).flatMap((template): Sample[] => {
    const prefix = template === "/api" ? "/api" : "/api/route_tables/1";
    return [
      ["GET", `${template}/routes`, `${prefix}/routes`, 200, {}, stack],
      ["GET", `${template}/routes/:id`, `${prefix}/routes/1`, 200, {}, stack],
      ["POST", `${template}/routes`, `${prefix}/routes`, 201, { form: { route: IP_ROUTE } }, network],
      [
        "PUT",
        `${template}/routes/:id`,
        `${prefix}/routes/1`,
        204,
        { form: { route: { description: "d" } } },
        stack,
      ],
      ["DELETE", `${template}/routes/:id`, `${prefix}/routes/1`, 204, {}, stack],
    ];
  }),
  ["GET", "/api/clouds/:cloud_id/volumes", "/api/clouds/1/volumes", 200],
  ["GET", "/api/clouds/:cloud_id/volumes/:id", "/api/clouds/1/volumes/1", 200],
  [
    "POST",
    "/api/clouds/:cloud_id/volumes",
    "/api/clouds/1/volumes",
    201,
    { form: { volume: { name: "v", size: "1", datacenter_href: "/api/clouds/1/datacenters/1" } } },
  ],
  [
    "PUT",
    "/api/clouds/:cloud_id/volumes/:id",
    "/api/clouds/1/volumes/1",
    204,
    { form: { volume: { name: "v" } } },
  ],
  ["DELETE", "/api/clouds/:cloud_id/volumes/:id", "/api/clouds/1/volumes/2", 204, {}, volume2],
  ...(
    [
      ["/api/clouds/:cloud_id", "/api/clouds/1", "1", onVolume],
      ["/api/clouds/:cloud_id/volumes/:volume_id", "/api/clouds/1/volumes/1", "1", onVolume],
      [
        "/api/clouds/:cloud_id/volume_snapshots/:volume_snapshot_id",
        "/api/clouds/1/volume_snapshots/1",
        "2",
        onSnapshot,
      ],
    ] as const
  ).flatMap(([template, prefix, id, body]): Sample[] => [
    [
      "GET",
      `${template}/recurring_volume_attachments`,
      `${prefix}/recurring_volume_attachments`,
      200,
      {},
      attachments,
    ],
    [
      "GET",
      `${template}/recurring_volume_attachments/:id`,
      `${prefix}/recurring_volume_attachments/${id}`,
      200,
      {},
      attachments,
    ],
    [
      "POST",
      `${template}/recurring_volume_attachments`,
      `${prefix}/recurring_volume_attachments`,
      201,
      { form: { recurring_volume_attachment: body } },
    ],
    [
      "DELETE",
      `${template}/recurring_volume_attachments/:id`,
      `${prefix}/recurring_volume_attachments/${id}`,
      204,
      {},
      attachments,
    ],
  ]),
  ["GET", "/api/clouds/:cloud_id/ip_addresses", "/api/clouds/1/ip_addresses", 200, {}, ip],
  ["GET", "/api/clouds/:cloud_id/ip_addresses/:id", "/api/clouds/1/ip_addresses/1", 200, {}, ip],
  [
    "POST",
    "/api/clouds/:cloud_id/ip_addresses",
    "/api/clouds/1/ip_addresses",
    201,
    { form: { ip_address: { name: "p" } } },
  ],
  [
    "PUT",
    "/api/clouds/:cloud_id/ip_addresses/:id",
    "/api/clouds/1/ip_addresses/1",
    204,
    { form: { ip_address: { name: "q" } } },
    ip,
  ],
  ["DELETE", "/api/clouds/:cloud_id/ip_addresses/:id", "/api/clouds/1/ip_addresses/1", 204, {}, ip],
  ...(
    [
      ["/api/clouds/:cloud_id", "/api/clouds/1"],
      ["/api/clouds/:cloud_id/ip_addresses/:ip_address_id", "/api/clouds/1/ip_addresses/1"],
    ] as const
  ).flatMap(([template, prefix]): Sample[] => [
    ["GET", `${template}/ip_address_bindings`, `${prefix}/ip_address_bindings`, 200, {}, binding],
    ["GET", `${template}/ip_address_bindings/:id`, `${prefix}/ip_address_bindings/1`, 200, {}, binding],
    [
      "POST",
      `${template}/ip_address_bindings`,
      `${prefix}/ip_address_bindings`,
      201,
      { form: { ip_address_binding: BINDING } },
      ip,
    ],
    ["DELETE", `${template}/ip_address_bindings/:id`, `${prefix}/ip_address_bindings/1`, 204, {}, binding],
  ]),
  ["GET", "/api/resource_groups", "/api/resource_groups", 200, {}, group],
  ["GET", "/api/resource_groups/:id", "/api/resource_groups/1", 200, {}, group],
  [
    "POST",
    "/api/resource_groups",
    "/api/resource_groups",
    201,
    { form: { resource_group: { cloud_href: "/api/clouds/1", name: "r" } } },
  ],
  [
    "PUT",
    "/api/resource_groups/:id",
    "/api/resource_groups/1",
    204,
    { form: { resource_group: { description: "" } } },
    group,
  ],
  ["DELETE", "/api/resource_groups/:id", "/api/resource_groups/1", 204, {}, group],
  ["GET", "/api/clouds/:cloud_id/security_groups", "/api/clouds/1/security_groups", 200],
  ["GET", "/api/clouds/:cloud_id/security_groups/:id", "/api/clouds/1/security_groups/1", 200],
  ["GET", "/api/clouds/:cloud_id/ssh_keys", "/api/clouds/2/ssh_keys", 200],
  ["GET", "/api/clouds/:cloud_id/ssh_keys/:id", "/api/clouds/2/ssh_keys/2", 200],
  ["GET", "/api/clouds/:cloud_id/volume_attachments", "/api/clouds/1/volume_attachments", 200],
  ["GET", "/api/clouds/:cloud_id/volume_attachments/:id", "/api/clouds/1/volume_attachments/1", 200],
  [
    "GET",
    "/api/clouds/:cloud_id/volumes/:volume_id/volume_snapshots",
    "/api/clouds/1/volumes/1/volume_snapshots",
    200,
  ],
  ["GET", "/api/clouds/:cloud_id/network_interfaces", "/api/clouds/1/network_interfaces", 200],
  ["GET", "/api/clouds/:cloud_id/network_interfaces/:id", "/api/clouds/1/network_interfaces/eni-1", 200],
  ["GET", "/api/deployments/:id/alerts", "/api/deployments/1/alerts", 200],
  ["GET", "/api/servers/:id/alerts", "/api/servers/1/alerts", 200],
  ["GET", "/api/server_arrays/:id/alerts", "/api/server_arrays/1/alerts", 200],
  ["GET", "/api/clouds/:cloud_id/instances/:instance_id/alerts", "/api/clouds/1/instances/1/alerts", 200],
  ["GET", "/api/multi_cloud_images/:id", "/api/multi_cloud_images/1", 200],
  [
    "GET",
    "/api/clouds/:cloud_id/instances/:instance_id/volume_attachments",
    "/api/clouds/1/instances/1/volume_attachments",
    200,
  ],
  [
    "GET",
    "/api/clouds/:cloud_id/volumes/:volume_id/volume_snapshots/:id",
    "/api/clouds/1/volumes/1/volume_snapshots/1",
    200,
  ],
];
