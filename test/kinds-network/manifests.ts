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

/**
 * A network with a public and a private side (the playground's shape): a RouteTable for each, the
 * private one the network's default (defaultRouteTableRef: it names the network back), a subnet
 * associated with each, an internet gateway and the internet route in the public table. Parents first.
 */
export function publicPrivate(prefix = ""): Manifest[] {
  const net = `${prefix}main`;
  return [
    {
      kind: "Network",
      name: net,
      spec: {
        cloudHref: "/api/clouds/1",
        cidrBlock: "10.10.0.0/16",
        defaultRouteTableRef: { name: `${prefix}private` },
      },
    },
    ...["public", "private"].map((side) => ({
      kind: "RouteTable",
      name: `${prefix}${side}`,
      spec: { networkRef: { name: net }, description: `${side} side` },
    })),
    ...["public", "private"].map((side, i) => ({
      kind: "Subnet",
      name: `${prefix}${side}-a`,
      spec: {
        networkRef: { name: net },
        cidrBlock: `10.10.${i + 1}.0/24`,
        datacenterHref: "/api/clouds/1/datacenters/1",
        routeTableRef: { name: `${prefix}${side}` },
      },
    })),
    {
      kind: "NetworkGateway",
      name: `${prefix}igw`,
      spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: net } },
    },
    {
      kind: "Route",
      name: `${prefix}internet`,
      spec: {
        routeTableRef: { name: `${prefix}public` },
        destinationCidrBlock: "0.0.0.0/0",
        nextHopType: "network_gateway",
        nextHopGatewayRef: { name: `${prefix}igw` },
      },
    },
  ];
}
