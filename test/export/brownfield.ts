import type { ServiceApi } from "../../src/api/index.ts";

/** The content of the stored script attachment `brownfield` makes (export never copies it). */
export const SCRIPT_CONTENT = '{"env": "production"}\n';

/** What `brownfield` made, by a short name of ours. */
export type Made = Record<string, string>;

/**
 * A brownfield account: objects of every managed kind made through the service API, as a team
 * would have made them by hand, with chains (a network with subnets, a gateway and routes; a route
 * table with a route and a subnet associated with it; a volume with an attachment; an IP address
 * with a binding; an alert spec; a file attached to a stored script), a deployment in a resource group that names it back, two networks whose
 * names make the same manifest name, and a route in the default route table of its network.
 */
export async function brownfield(api: ServiceApi): Promise<Made> {
  const m: Made = {};
  const cloud = "/api/clouds/1";
  m.rg = await api.resourceGroups.create({ cloud_href: cloud, name: "rg-main", description: "main group" });
  m.web = await api.deployments.create({
    name: "web",
    description: "Web tier",
    server_tag_scope: "deployment",
    resource_group_href: m.rg,
  });
  // The group names the deployment back: one of the two stays an href, or they would wait on each other.
  await api.resourceGroups.update(m.rg, { deployment_href: m.web });
  m.batch = await api.deployments.create({ name: "Batch Jobs", server_tag_scope: "account" });
  await api.deployments.lock(m.batch);
  m.main = await api.networks.create({
    cloud_href: cloud,
    name: "main",
    cidr_block: "10.10.0.0/16",
    description: "main network",
    deployment_href: m.web,
  });
  m.mainUpper = await api.networks.create({ cloud_href: cloud, name: "Main", cidr_block: "10.50.0.0/16" });
  m.subA = await api.subnets.create(cloud, {
    network_href: m.main,
    cidr_block: "10.10.1.0/24",
    name: "main-a",
    datacenter_href: "/api/clouds/1/datacenters/1",
  });
  m.subB = await api.subnets.create(cloud, {
    network_href: m.main,
    cidr_block: "10.10.2.0/24",
    name: "main-b",
    datacenter_href: "/api/clouds/1/datacenters/2",
    description: "zone b",
  });
  m.igw = await api.networkGateways.create({ cloud_href: cloud, name: "main-igw", type: "internet" });
  await api.networkGateways.update(m.igw, { network_href: m.main });
  const network = await api.networks.show(m.main);
  const table = network.links.find((l) => l.rel === "default_route_table")!.href!;
  m.toInternet = await api.routes.create({
    route_table_href: table,
    destination_cidr_block: "0.0.0.0/0",
    next_hop_type: "network_gateway",
    next_hop_href: m.igw,
    description: "to the internet",
  });
  m.toVpn = await api.routes.create({
    route_table_href: table,
    destination_cidr_block: "10.20.0.0/16",
    next_hop_type: "ip_string",
    next_hop_ip: "10.10.1.10",
  });
  m.toSvc = await api.routes.create({
    route_table_href: table,
    destination_cidr_block: "10.30.0.0/16",
    next_hop_type: "url",
    next_hop_url: "https://hop.example.com/a",
  });
  m.tagged = await api.routes.create({
    route_table_href: table,
    destination_cidr_block: "10.40.0.0/16",
    next_hop_type: "ip_string",
    next_hop_ip: "10.10.2.10",
    cloud_specific_attributes: { instance_tags: ["web"], priority: 10 },
  });
  // The private side: a route table of its own, a route in it, a subnet associated with it.
  m.private = await api.routeTables.create({
    cloud_href: cloud,
    network_href: m.main,
    name: "private",
    description: "no internet",
  });
  m.toPeer = await api.routes.create({
    route_table_href: m.private,
    destination_cidr_block: "10.60.0.0/16",
    next_hop_type: "ip_string",
    next_hop_ip: "10.10.3.10",
  });
  m.subC = await api.subnets.create(cloud, {
    network_href: m.main,
    cidr_block: "10.10.3.0/24",
    name: "main-c",
    datacenter_href: "/api/clouds/1/datacenters/1",
  });
  await api.subnets.update(m.subC, { route_table_href: m.private });
  m.ip = await api.ipAddresses.create(cloud, { name: "web-ip", domain: "vpc", deployment_href: m.web });
  m.binding = await api.ipAddressBindings.create(cloud, {
    instance_href: "/api/clouds/1/instances/1",
    public_ip_address_href: m.ip,
  });
  m.alert = await api.alertSpecs.create(
    {
      name: "cpu very busy",
      description: "CPU idle below 5%",
      file: "cpu-0/cpu-idle",
      variable: "value",
      condition: "<",
      threshold: "5",
      duration: 3,
      escalation_name: "warning",
    },
    "/api/server_templates/1",
  );
  m.script = await api.storedScriptAttachments.create("/api/stored_scripts/1", {
    filename: "app config.json",
    content: SCRIPT_CONTENT,
  });
  m.data = await api.volumes.create(cloud, {
    name: "data",
    size: 10,
    datacenter_href: "/api/clouds/1/datacenters/1",
    deployment_href: m.web,
    volume_type_href: "/api/clouds/1/volume_types/1",
    description: "web data",
  } as never);
  m.attachment = await api.recurringVolumeAttachments.create(cloud, {
    runnable_href: "/api/servers/1",
    storage_href: m.data,
    device: "/dev/xvdb",
  } as never);
  m.observer = await api.permissions.create({ user_href: "/api/users/2", role_title: "observer" });
  m.actor = await api.permissions.create({ user_href: "/api/users/2", role_title: "actor" });
  return m;
}

/**
 * The `i`th set of objects of every kind, made through the API (for counts of many objects): a
 * deployment, a network (10.X.Y.0/24) with a subnet, a route table with a route and a subnet
 * associated with it, an IP address with a binding, a resource group, an alert spec and a file
 * attached to a stored script. Up to 62,500 sets.
 */
export async function setOfEveryKind(api: ServiceApi, i: number): Promise<void> {
  const cloud = "/api/clouds/1";
  const net = `10.${Math.floor(i / 250)}.${i % 250}`;
  await api.deployments.create({ name: `app-${i}` });
  const network = await api.networks.create({
    cloud_href: cloud,
    name: `net-${i}`,
    cidr_block: `${net}.0/24`,
  });
  await api.subnets.create(cloud, { network_href: network, name: `sub-${i}`, cidr_block: `${net}.0/26` });
  const table = await api.routeTables.create({
    cloud_href: cloud,
    network_href: network,
    name: `private-${i}`,
  });
  await api.routes.create({
    route_table_href: table,
    destination_cidr_block: "10.254.0.0/16",
    next_hop_type: "ip_string",
    next_hop_ip: `${net}.70`,
  });
  const inside = await api.subnets.create(cloud, {
    network_href: network,
    name: `inside-${i}`,
    cidr_block: `${net}.64/26`,
  });
  await api.subnets.update(inside, { route_table_href: table });
  const ip = await api.ipAddresses.create(cloud, { name: `ip-${i}`, domain: "vpc" });
  await api.ipAddressBindings.create(cloud, {
    instance_href: "/api/clouds/1/instances/1",
    public_ip_address_href: ip,
  });
  await api.resourceGroups.create({ cloud_href: cloud, name: `rg-${i}` });
  await api.alertSpecs.create(
    {
      name: `cpu-${i}`,
      file: "cpu-0/cpu-idle",
      variable: "value",
      condition: "<",
      threshold: "10",
      duration: 5,
      escalation_name: "critical",
    },
    "/api/server_templates/1",
  );
  await api.storedScriptAttachments.create("/api/stored_scripts/2", {
    filename: `f-${i}.txt`,
    content: `file ${i}\n`,
  });
}
