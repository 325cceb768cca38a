import type { Manifest } from "./helpers.ts";

/** 1 Network, 3 Subnets, 1 Gateway and 4 Routes, parents first. */
export function networkStack(prefix = ""): Manifest[] {
  const net = `${prefix}main`;
  const igw = `${prefix}igw`;
  return [
    {
      kind: "Network",
      name: net,
      spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16", description: "stack" },
    },
    ...[1, 2, 3].map((i) => ({
      kind: "Subnet",
      name: `${prefix}sub-${i}`,
      spec: {
        networkRef: { name: net },
        cidrBlock: `10.10.${i}.0/24`,
        datacenterHref: "/api/clouds/1/datacenters/1",
      },
    })),
    {
      kind: "NetworkGateway",
      name: igw,
      spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: net } },
    },
    {
      kind: "Route",
      name: `${prefix}default`,
      spec: {
        networkRef: { name: net },
        destinationCidrBlock: "0.0.0.0/0",
        nextHopType: "network_gateway",
        nextHopGatewayRef: { name: igw },
      },
    },
    {
      kind: "Route",
      name: `${prefix}to-vpn`,
      spec: {
        networkRef: { name: net },
        destinationCidrBlock: "10.20.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.1.10",
      },
    },
    {
      kind: "Route",
      name: `${prefix}to-svc`,
      spec: {
        networkRef: { name: net },
        destinationCidrBlock: "10.30.0.0/16",
        nextHopType: "url",
        nextHopUrl: "https://hop.example.com/a",
      },
    },
    {
      kind: "Route",
      name: `${prefix}tagged`,
      spec: {
        networkRef: { name: net },
        destinationCidrBlock: "10.40.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.2.10",
        cloudSpecificAttributes: { instanceTags: ["web"], priority: 10 },
      },
    },
  ];
}
