import { expect } from "vitest";
import type { Harness } from "../harness.ts";
import { create } from "../net-helpers.ts";

/**
 * A world where every object carries every link it can have: the seed (deployments, clouds,
 * servers, arrays, instances, snapshots, scripts, a volume in use) plus one object of every
 * resource the seed does not hold, with every optional reference set.
 */
export async function richWorld(h: Harness): Promise<void> {
  await h.hook("reset");
  await create(h, "/api/resource_groups", {
    resource_group: { cloud_href: "/api/clouds/1", name: "rg", deployment_href: "/api/deployments/1" },
  });
  const deployment = await create(h, "/api/deployments", {
    deployment: { name: "grouped", resource_group_href: "/api/resource_groups/1" },
  });
  expect((await h.admin.post(`${deployment}/lock`)).status).toBe(204);
  await create(h, "/api/networks", {
    network: {
      cloud_href: "/api/clouds/1",
      cidr_block: "10.0.0.0/16",
      deployment_href: "/api/deployments/1",
    },
  });
  const table = await create(h, "/api/route_tables", {
    route_table: { cloud_href: "/api/clouds/1", network_href: "/api/networks/1", name: "private" },
  });
  await create(h, "/api/clouds/1/subnets", {
    subnet: {
      network_href: "/api/networks/1",
      cidr_block: "10.0.1.0/24",
      datacenter_href: "/api/clouds/1/datacenters/1",
    },
  });
  expect(
    (await h.admin.put("/api/clouds/1/subnets/1", { json: { subnet: { route_table_href: table } } })).status,
  ).toBe(204);
  await create(h, "/api/clouds/1/instances/1/subnets", {
    subnet: { network_href: "/api/networks/1", cidr_block: "10.0.2.0/24" },
  });
  await create(h, "/api/network_gateways", {
    network_gateway: { cloud_href: "/api/clouds/1", name: "igw", type: "internet" },
  });
  expect(
    (
      await h.admin.put("/api/network_gateways/1", {
        json: { network_gateway: { network_href: "/api/networks/1" } },
      })
    ).status,
  ).toBe(204);
  for (const route of [
    {
      next_hop_type: "network_gateway",
      next_hop_href: "/api/network_gateways/1",
      destination_cidr_block: "0.0.0.0/0",
    },
    {
      next_hop_type: "instance",
      next_hop_href: "/api/clouds/1/instances/1",
      destination_cidr_block: "10.9.0.0/16",
    },
    { next_hop_type: "ip_string", next_hop_ip: "10.0.0.9", destination_cidr_block: "10.8.0.0/16" },
    { next_hop_type: "url", next_hop_url: "https://hop.example.com", destination_cidr_block: "10.7.0.0/16" },
    {
      next_hop_type: "network_interface",
      next_hop_href: "/api/clouds/1/network_interfaces/eni-2",
      destination_cidr_block: "10.6.0.0/16",
      cloud_specific_attributes: { instance_tags: ["web"], priority: 10 },
    },
  ])
    await create(h, "/api/routes", { route: { route_table_href: "/api/route_tables/1", ...route } });
  await create(h, `${table}/routes`, {
    route: {
      route_table_href: table,
      next_hop_type: "ip_string",
      next_hop_ip: "10.0.0.8",
      destination_cidr_block: "10.5.0.0/16",
    },
  });
  await create(h, "/api/clouds/1/ip_addresses", {
    ip_address: { name: "pub-1", deployment_href: "/api/deployments/1", network_href: "/api/networks/1" },
  });
  await create(h, "/api/clouds/1/ip_address_bindings", {
    ip_address_binding: {
      instance_href: "/api/clouds/1/instances/1",
      public_ip_address_href: "/api/clouds/1/ip_addresses/1",
    },
  });
  await create(h, "/api/clouds/1/ip_address_bindings", {
    ip_address_binding: { instance_href: "/api/clouds/1/instances/3", public_port: "80", protocol: "TCP" },
  });
  await create(h, "/api/clouds/1/volumes", {
    volume: {
      name: "from-snapshot",
      datacenter_href: "/api/clouds/1/datacenters/1",
      deployment_href: "/api/deployments/1",
      volume_type_href: "/api/clouds/1/volume_types/2",
      parent_volume_snapshot_href: "/api/clouds/1/volume_snapshots/2",
      image_href: "/api/clouds/1/images/1",
      iops: "300",
    },
  });
  await create(h, "/api/clouds/1/volumes", {
    volume: {
      name: "placed",
      size: "5",
      datacenter_href: "/api/clouds/1/datacenters/1",
      placement_group_href: "/api/placement_groups/1",
    },
  });
  await create(h, "/api/clouds/1/recurring_volume_attachments", {
    recurring_volume_attachment: {
      device: "/dev/xvdb",
      runnable_href: "/api/servers/1",
      storage_href: "/api/clouds/1/volumes/2",
    },
  });
  await create(h, "/api/clouds/1/recurring_volume_attachments", {
    recurring_volume_attachment: {
      device: "/dev/xvdc",
      runnable_href: "/api/server_arrays/1",
      storage_href: "/api/clouds/1/volume_snapshots/1",
    },
  });
  const alert = {
    name: "cpu",
    file: "cpu-0/cpu-idle",
    variable: "value",
    condition: "<",
    threshold: "10",
    duration: "5",
  };
  await create(h, "/api/server_arrays/1/alert_specs", {
    alert_spec: { ...alert, vote_type: "grow", vote_tag: "workers" },
  });
  await create(h, "/api/clouds/1/instances/1/alert_specs", {
    alert_spec: { ...alert, escalation_name: "critical" },
  });
  const upload = new FormData();
  upload.append("stored_script_attachment[filename]", "run.sh");
  upload.append("stored_script_attachment[content]", new Blob(["echo hi\n"]), "run.sh");
  expect((await h.admin.post("/api/stored_scripts/1/attachments", { multipart: upload })).status).toBe(201);
}

const AUDIT_WINDOW =
  "start_date=2025/01/01%2000:00:00%20%2B0000&end_date=2025/04/01%2000:00:00%20%2B0000&limit=1000";

/** Where a client starts: the session's links lead to the root resources. */
export const WALK_ENTRY_POINTS = [
  "/api/session",
  "/api/sessions",
  `/api/audit_entries?${AUDIT_WINDOW}`,
  "/api/resource_groups",
  "/api/clouds/1/ip_address_bindings",
  "/api/health-check/",
];

/** GET routes no representation links to (alternative path forms, the session's own routes). */
export const UNLINKED_ENTRY_POINTS = [
  "/api/session/accounts",
  "/api/sessions/accounts",
  "/api/routes/1",
  "/api/clouds/1/instances/1/subnets",
  "/api/clouds/1/instances/1/subnets/2",
  "/api/clouds/1/volumes/1/recurring_volume_attachments",
  "/api/clouds/1/volumes/2/recurring_volume_attachments/1",
  "/api/clouds/1/volume_snapshots/1/recurring_volume_attachments",
  "/api/clouds/1/volume_snapshots/1/recurring_volume_attachments/2",
  "/api/clouds/1/ip_addresses/1/ip_address_bindings/1",
  "/api/servers/1/alert_specs/2",
  "/api/server_templates/1/alert_specs/1",
  "/api/deployments/1/servers",
  "/api/deployments/1/server_arrays",
  "/api/server_arrays/1/alert_specs/3",
  "/api/clouds/1/instances/1/alert_specs/4",
  "/api/clouds/1/volumes/1/volume_snapshots/1",
  "/api/clouds/1/network_interfaces",
  "/api/stored_scripts/1/attachments",
  "/api/stored_scripts/1/attachments/1",
];
