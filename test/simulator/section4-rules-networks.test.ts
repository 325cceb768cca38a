import { BIND, describeSection4Rules, IP, type Row } from "./section4-rules-helpers.ts";

// Spec section 4, 4.7 networks to 4.11 IP address bindings:
// one row per parameter rule (see section4-rules-helpers.ts).
const ROWS: Row[] = [
  // 4.7 networks
  [
    "4.7 network hash required",
    "POST",
    "/api/networks",
    { json: { cloud_href: "/api/clouds/1" } },
    400,
    "network",
  ],
  [
    "4.7 cloud_href required",
    "POST",
    "/api/networks",
    { json: { network: { cidr_block: "10.0.0.0/16" } } },
    400,
    "network[cloud_href]",
  ],
  [
    "4.7 instance_tenancy values",
    "POST",
    "/api/networks",
    {
      json: {
        network: { cloud_href: "/api/clouds/1", cidr_block: "10.0.0.0/16", instance_tenancy: "shared" },
      },
    },
    400,
    "network[instance_tenancy]",
  ],
  [
    "4.7 unknown cloud",
    "POST",
    "/api/networks",
    { json: { network: { cloud_href: "/api/clouds/9", cidr_block: "10.0.0.0/16" } } },
    422,
    "Couldn't find Cloud with ID=9",
  ],
  ["4.7 update needs the network hash", "PUT", "/api/networks/1", { json: { name: "n" } }, 400, "network"],
  ["4.7 network with subnets is not destroyed", "DELETE", "/api/networks/1", {}, 422, "subnet"],
  // 4.8 subnets
  [
    "4.8 subnet hash required",
    "POST",
    "/api/clouds/1/subnets",
    { json: { cidr_block: "10.0.5.0/24" } },
    400,
    "subnet",
  ],
  [
    "4.8 cidr_block required",
    "POST",
    "/api/clouds/1/subnets",
    { json: { subnet: { network_href: "/api/networks/1" } } },
    400,
    "subnet[cidr_block]",
  ],
  [
    "4.8 network_href required",
    "POST",
    "/api/clouds/1/subnets",
    { json: { subnet: { cidr_block: "10.0.5.0/24" } } },
    400,
    "subnet[network_href]",
  ],
  [
    "4.8 update needs the subnet hash",
    "PUT",
    "/api/clouds/1/subnets/1",
    { json: { name: "s" } },
    400,
    "subnet",
  ],
  [
    "4.8 unknown filter",
    "GET",
    "/api/clouds/1/subnets",
    { query: { filter: ["state==pending"] } },
    400,
    "state",
  ],
  // 4.9 network gateways
  ["4.9 hash required", "POST", "/api/network_gateways", { json: { name: "g" } }, 400, "network_gateway"],
  [
    "4.9 cloud_href required",
    "POST",
    "/api/network_gateways",
    { json: { network_gateway: { name: "g", type: "vpn" } } },
    400,
    "network_gateway[cloud_href]",
  ],
  [
    "4.9 name required",
    "POST",
    "/api/network_gateways",
    { json: { network_gateway: { cloud_href: "/api/clouds/1", type: "vpn" } } },
    400,
    "network_gateway[name]",
  ],
  [
    "4.9 type required",
    "POST",
    "/api/network_gateways",
    { json: { network_gateway: { cloud_href: "/api/clouds/1", name: "g" } } },
    400,
    "network_gateway[type]",
  ],
  [
    "4.9 type values",
    "POST",
    "/api/network_gateways",
    { json: { network_gateway: { cloud_href: "/api/clouds/1", name: "g", type: "nat" } } },
    400,
    "network_gateway[type]",
  ],
  [
    "4.9 update to an unknown network",
    "PUT",
    "/api/network_gateways/1",
    { json: { network_gateway: { network_href: "/api/networks/9" } } },
    422,
    "Couldn't find Network with ID=9",
  ],
  // 4.10 IP addresses
  ["4.10 hash required", "POST", "/api/clouds/1/ip_addresses", { json: { name: "p" } }, 400, "ip_address"],
  [
    "4.10 name required",
    "POST",
    "/api/clouds/1/ip_addresses",
    { json: { ip_address: { domain: "vpc" } } },
    400,
    "ip_address[name]",
  ],
  [
    "4.10 domain values",
    "POST",
    "/api/clouds/1/ip_addresses",
    { json: { ip_address: { name: "p", domain: "classic" } } },
    400,
    "ip_address[domain]",
  ],
  [
    "4.10 update name required",
    "PUT",
    IP,
    { json: { ip_address: { deployment_href: "/api/deployments/1" } } },
    400,
    "ip_address[name]",
  ],
  // 4.11 IP address bindings
  [
    "4.11 hash required",
    "POST",
    BIND,
    { json: { instance_href: "/api/clouds/1/instances/1" } },
    400,
    "ip_address_binding",
  ],
  [
    "4.11 instance_href and server_href exclusive",
    "POST",
    BIND,
    {
      json: {
        ip_address_binding: {
          instance_href: "/api/clouds/1/instances/1",
          server_href: "/api/servers/1",
          public_ip_address_href: IP,
        },
      },
    },
    400,
    "server_href",
  ],
  [
    "4.11 public_ip_address_href unless port forwarding",
    "POST",
    BIND,
    { json: { ip_address_binding: { instance_href: "/api/clouds/1/instances/1" } } },
    400,
    "public_ip_address_href",
  ],
  [
    "4.11 port forwarding needs public_port",
    "POST",
    BIND,
    {
      json: {
        ip_address_binding: {
          instance_href: "/api/clouds/1/instances/1",
          private_port: "80",
          protocol: "TCP",
        },
      },
    },
    400,
    "public_port",
  ],
  [
    "4.11 port forwarding needs protocol",
    "POST",
    BIND,
    { json: { ip_address_binding: { instance_href: "/api/clouds/1/instances/1", public_port: "80" } } },
    400,
    "protocol",
  ],
  [
    "4.11 protocol values",
    "POST",
    BIND,
    {
      json: {
        ip_address_binding: {
          instance_href: "/api/clouds/1/instances/1",
          public_port: "80",
          protocol: "ICMP",
        },
      },
    },
    400,
    "protocol",
  ],
  [
    "4.11 the server must have a current instance",
    "POST",
    BIND,
    { json: { ip_address_binding: { server_href: "/api/servers/2", public_ip_address_href: IP } } },
    422,
    "current instance",
  ],
];

describeSection4Rules(ROWS);
