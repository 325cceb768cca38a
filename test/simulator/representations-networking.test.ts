import { describe, it } from "vitest";
import { expectRepresentation, type Row, startRepresentationWorld } from "./representations-helpers.ts";

// Spec 2.2 for the networking resources.
const h = await startRepresentationWorld();

const ROWS: Row[] = [
  {
    resource: "Route",
    path: "/api/routes/1",
    index: "/api/routes",
    type: "route",
    plural: "routes",
    fields: {
      description: "string?",
      destination_cidr_block: "string",
      next_hop_type: "string",
      state: "string",
      resource_uid: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      links: "list",
      cloud_specific_attributes: "hash?",
    },
    extras: { next_hop_ip: "string?", next_hop_url: "string?" },
    rels: ["self", "route_table", "cloud", "next_hop"],
    nullField: "next_hop_ip",
  },
  {
    resource: "Network",
    path: "/api/networks/1",
    index: "/api/networks",
    type: "network",
    plural: "networks",
    fields: {
      resource_uid: "string",
      name: "string?",
      description: "string?",
      instance_tenancy: "string",
      cidr_block: "string",
      is_default: "boolean",
      links: "list",
    },
    extras: { actions: "list" },
    rels: ["self", "cloud", "default_route_table"],
    nullField: "description",
  },
  {
    resource: "IpAddressBinding",
    path: "/api/clouds/1/ip_address_bindings/1",
    index: "/api/clouds/1/ip_address_bindings",
    type: "ip_address_binding",
    plural: "ip_address_bindings",
    fields: { created_at: "timestamp", recurring: "boolean", links: "list" },
    extras: { public_port: "number?", private_port: "number?", protocol: "string?" },
    rels: ["self", "instance", "ip_address"],
    nullField: "protocol",
  },
  {
    resource: "Subnet",
    path: "/api/clouds/1/subnets/1",
    index: "/api/clouds/1/subnets",
    type: "subnet",
    plural: "subnets",
    fields: {
      visibility: "string",
      resource_uid: "string",
      name: "string?",
      description: "string?",
      state: "string",
      cidr_block: "string?",
      is_default: "boolean",
      links: "list",
    },
    rels: ["self", "datacenter", "route_table", "effective_route_table"],
    nullField: "description",
  },
  {
    resource: "NetworkGateway",
    path: "/api/network_gateways/1",
    index: "/api/network_gateways",
    type: "network_gateway",
    plural: "network_gateways",
    fields: {
      name: "string",
      description: "string?",
      resource_uid: "string",
      created_at: "timestamp",
      updated_at: "timestamp",
      state: "string",
      type: "string",
      links: "list",
      actions: "list",
    },
    rels: ["self", "cloud", "network"],
    nullField: "description",
  },
  {
    resource: "IpAddress",
    path: "/api/clouds/1/ip_addresses/1",
    index: "/api/clouds/1/ip_addresses",
    type: "ip_address",
    plural: "ip_addresses",
    fields: {
      created_at: "timestamp",
      updated_at: "timestamp",
      name: "string",
      address: "string",
      links: "list",
    },
    extras: { domain: "string" },
    rels: ["self", "ip_address_bindings"],
  },
];

describe("representations (spec 2.2)", () => {
  it.each(ROWS.map((r) => [r.resource, r] as const))(
    "%s: key set, JSON types, rels, media types, XML roots",
    async (_name, row) => {
      await expectRepresentation(h, row);
    },
  );
});
