import { afterEach, describe, expect, it } from "vitest";
import { deploymentKind } from "./deployment/kind.ts";
import { networkKind } from "./network/kind.ts";
import { networkGatewayKind } from "./network-gateway/kind.ts";
import { permissionKind } from "./permission/kind.ts";
import {
  type FakeService,
  fakeService,
  REAL_MEDIA_TYPES,
  type RealShapeCase,
  realRepresentation as real,
} from "./real-media-types.testing.ts";
import { tableKindCases } from "./real-shapes-table.testing.ts";
import { recurringVolumeAttachmentKind } from "./recurring-volume-attachment/kind.ts";
import { createRouteKind } from "./route/kind.ts";
import { routeTableRealShape } from "./route-table/real-shape.testing.ts";
import { storedScriptAttachmentKind } from "./stored-script-attachment/kind.ts";
import { subnetKind } from "./subnet/kind.ts";
import { volumeKind } from "./volume/kind.ts";

/**
 * Every kind observed from representations built strictly from the real media types (only the
 * attributes and links the real service declares; see real-media-types.testing.ts), through the
 * real service client: each writable href field must come out of the link the real service sends.
 */

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function service(paths: Record<string, unknown>): FakeService {
  fake = fakeService(paths);
  return fake;
}

const C = "/api/clouds/1";
const ROUTE_TABLE = real(
  "route_table",
  { name: "default", description: null, resource_uid: "rtb-1" },
  { self: "/api/route_tables/1", cloud: C, network: "/api/networks/1", routes: "/api/route_tables/1/routes" },
);
const ROUTE = (links: Record<string, string>) =>
  real(
    "route",
    {
      description: null,
      destination_cidr_block: "0.0.0.0/0",
      next_hop_type: "network_gateway",
      next_hop_ip: null,
      next_hop_url: null,
      state: "available",
      cloud_specific_attributes: null,
    },
    { self: "/api/route_tables/1/routes/4", route_table: "/api/route_tables/1", cloud: C, ...links },
  );
const routeDesired = {
  routeTableHref: "/api/route_tables/1",
  destinationCidrBlock: "0.0.0.0/0",
  nextHopType: "network_gateway",
  nextHopHref: "/api/network_gateways/3",
  fields: { routeTableHref: "networkRef", nextHopHref: "nextHopGatewayRef" },
};

const cases: RealShapeCase[] = [
  {
    reason: "Deployment: the resource group is the resource_group link; another one is drift (updatable)",
    kind: deploymentKind,
    href: "/api/deployments/1",
    desired: { name: "web", resourceGroupHref: "/api/resource_groups/1", locked: false, fields: {} },
    paths: {
      "/api/deployments/1": real(
        "deployment",
        {
          name: "web",
          description: null,
          server_tag_scope: "deployment",
          locked: false,
          inputs: [],
          actions: [],
        },
        {
          self: "/api/deployments/1",
          inputs: "/api/deployments/1/inputs",
          resource_group: "/api/resource_groups/2",
        },
      ),
    },
    atProvider: { name: "web", resourceGroupHref: "/api/resource_groups/2" },
    diff: ["resourceGroupHref"],
  },
  {
    reason: "Network: deployment and default route table are its links; another deployment is drift",
    kind: networkKind,
    href: "/api/networks/1",
    desired: {
      cloudHref: C,
      cidrBlock: "10.0.0.0/16",
      name: "main",
      deploymentHref: "/api/deployments/1",
      routeTableHref: "/api/route_tables/1",
      fields: {},
    },
    paths: {
      "/api/networks/1": real(
        "network",
        {
          name: "main",
          description: null,
          cidr_block: "10.0.0.0/16",
          instance_tenancy: "default",
          is_default: false,
        },
        {
          self: "/api/networks/1",
          cloud: C,
          default_route_table: "/api/route_tables/1",
          deployment: "/api/deployments/2",
        },
      ),
    },
    atProvider: {
      cloudHref: C,
      defaultRouteTableHref: "/api/route_tables/1",
      deploymentHref: "/api/deployments/2",
    },
    diff: ["deploymentHref"],
  },
  {
    reason: "Subnet: network, datacenter and route table are its links; another route table is drift",
    kind: subnetKind,
    href: `${C}/subnets/1`,
    desired: {
      networkHref: "/api/networks/1",
      cidrBlock: "10.0.1.0/24",
      datacenterHref: `${C}/datacenters/1`,
      name: "a",
      routeTableHref: "/api/route_tables/2",
      cloudHref: C,
      fields: {},
    },
    paths: {
      [`${C}/subnets/1`]: real(
        "subnet",
        { name: "a", description: "", cidr_block: "10.0.1.0/24", state: "available", is_default: false },
        {
          self: `${C}/subnets/1`,
          datacenter: `${C}/datacenters/1`,
          network: "/api/networks/1",
          route_table: "/api/route_tables/3",
          effective_route_table: "/api/route_tables/3",
        },
      ),
    },
    atProvider: {
      networkHref: "/api/networks/1",
      datacenterHref: `${C}/datacenters/1`,
      routeTableHref: "/api/route_tables/3",
      cloudHref: C,
    },
    diff: ["routeTableHref"],
  },
  {
    reason: "NetworkGateway: the attachment is the network link; a gateway without one is detached (drift)",
    kind: networkGatewayKind,
    href: "/api/network_gateways/3",
    desired: {
      cloudHref: C,
      type: "internet",
      name: "igw",
      networkHref: "/api/networks/1",
      fields: { networkHref: "networkRef" },
    },
    paths: {
      "/api/network_gateways/3": real(
        "network_gateway",
        { name: "igw", description: null, type: "internet", state: "available", actions: [] },
        { self: "/api/network_gateways/3", cloud: C },
      ),
    },
    atProvider: { cloudHref: C, name: "igw" },
    diff: ["networkRef"],
  },
  {
    reason: "Route: the next hop is the next_hop link, the network its route table's network link",
    kind: createRouteKind(),
    href: "/api/route_tables/1/routes/4",
    desired: routeDesired,
    paths: {
      "/api/route_tables/1/routes/4": ROUTE({ next_hop: "/api/network_gateways/9" }),
      "/api/route_tables/1": ROUTE_TABLE,
    },
    atProvider: {
      nextHopHref: "/api/network_gateways/9",
      routeTableHref: "/api/route_tables/1",
      networkHref: "/api/networks/1",
      cloudHref: C,
    },
    diff: ["nextHopGatewayRef"],
  },
  {
    reason: "Route: a gateway route that shows no next_hop link has lost its hop (drift)",
    kind: createRouteKind(),
    href: "/api/route_tables/1/routes/4",
    desired: routeDesired,
    paths: { "/api/route_tables/1/routes/4": ROUTE({}), "/api/route_tables/1": ROUTE_TABLE },
    atProvider: { routeTableHref: "/api/route_tables/1", networkHref: "/api/networks/1" },
    diff: ["nextHopGatewayRef"],
  },
  routeTableRealShape,
  {
    reason: "Volume: deployment, volume type, datacenter, placement group are links, iops an attribute",
    kind: volumeKind,
    href: `${C}/volumes/7`,
    desired: {
      cloudHref: C,
      name: "data",
      datacenterHref: `${C}/datacenters/1`,
      deploymentHref: "/api/deployments/1",
      volumeTypeHref: `${C}/volume_types/1`,
      placementGroupHref: `${C}/placement_groups/1`,
      iops: 300,
      fields: {},
    },
    paths: {
      [`${C}/volumes/7`]: real(
        "volume",
        {
          created_at: null,
          name: "data",
          size: 10,
          description: null,
          status: "available",
          iops: "300",
          volume_type: "standard",
          placement_group: null,
          cloud_specific_attributes: null,
        },
        {
          self: `${C}/volumes/7`,
          cloud: C,
          datacenter: `${C}/datacenters/1`,
          deployment: "/api/deployments/2",
          volume_type: `${C}/volume_types/1`,
          placement_group: `${C}/placement_groups/2`,
        },
      ),
    },
    atProvider: {
      cloudHref: C,
      datacenterHref: `${C}/datacenters/1`,
      deploymentHref: "/api/deployments/2",
      volumeTypeHref: `${C}/volume_types/1`,
      placementGroupHref: `${C}/placement_groups/2`,
      iops: 300,
    },
    diff: ["deploymentHref", "placementGroupHref"],
  },
  {
    reason: "RecurringVolumeAttachment: runnable and storage are its links; another runnable is drift",
    kind: recurringVolumeAttachmentKind,
    href: `${C}/recurring_volume_attachments/2`,
    desired: {
      cloudHref: C,
      storageHref: `${C}/volumes/7`,
      runnableHref: "/api/servers/1",
      device: "/dev/xvdb",
      fields: {},
    },
    paths: {
      [`${C}/recurring_volume_attachments/2`]: real(
        "recurring_volume_attachment",
        {
          device: "/dev/xvdb",
          status: "attached",
          size: "10 GB",
          runnable_type: "Server",
          storage_type: "Volume",
        },
        {
          self: `${C}/recurring_volume_attachments/2`,
          cloud: C,
          runnable: "/api/servers/2",
          storage: `${C}/volumes/7`,
        },
      ),
    },
    atProvider: { cloudHref: C, runnableHref: "/api/servers/2", storageHref: `${C}/volumes/7` },
    diff: ["runnableHref"],
  },
  {
    reason: "Permission: the user is the user link; another user is drift",
    kind: permissionKind,
    href: "/api/permissions/2-observer",
    desired: { userHref: "/api/users/2", roleTitle: "observer", fields: {} },
    paths: {
      "/api/permissions/2-observer": real(
        "permission",
        { id: "2-observer", role_title: "observer", created_at: null, deleted_at: null, actions: [] },
        { self: "/api/permissions/2-observer", account: "/api/accounts/1", user: "/api/users/3" },
      ),
    },
    atProvider: { roleTitle: "observer", userHref: "/api/users/3" },
    diff: ["userHref"],
  },
  ...tableKindCases,
];

describe("kinds observe the real media types", () => {
  it.each(cases)("$reason", async (c) => {
    const { api } = service(c.paths);
    const observed = await c.kind.observe(api, c.href, c.desired);
    expect(observed).toBeDefined();
    expect(c.kind.hrefOf(observed)).toBe(c.href);
    expect(c.kind.atProvider(observed)).toMatchObject(c.atProvider);
    expect(c.kind.diff(c.desired, observed).map((d) => d.field)).toEqual(c.diff);
  });

  it("StoredScriptAttachment: status shows neither digest nor download URL; equal content is in sync", async () => {
    const c = cases.find((x) => x.kind === storedScriptAttachmentKind)!;
    const { api } = service(c.paths);
    const observed = await c.kind.observe(api, c.href, c.desired);
    expect(Object.keys(c.kind.atProvider(observed)).sort()).toEqual([
      "filename",
      "size",
      "storedScriptHref",
      "updatedAt",
    ]);
    const same = { ...(c.desired as Record<string, unknown>), content: Buffer.alloc(0) };
    expect(c.kind.diff(same, observed)).toEqual([]);
  });

  it("covers every registered kind", async () => {
    const { managedKinds } = await import("./index.ts");
    expect(new Set(cases.map((c) => c.kind.kind))).toEqual(new Set(managedKinds.map((k) => k.kind)));
  });

  it("the builder refuses what the real service does not send (the simulator's extras among them)", () => {
    expect(() => real("route", { next_hop_href: "/api/network_gateways/3" }, {})).toThrow(
      "route: attribute next_hop_href is not declared",
    );
    expect(() => real("route", {}, { network: "/api/networks/1" })).toThrow(
      "route: link network is not declared",
    );
    expect(() => real("route_table", { is_default: true }, {})).toThrow("is_default is not declared");
    expect(Object.keys(REAL_MEDIA_TYPES)).toHaveLength(14);
  });
});

describe("routes from the real media types through the index", () => {
  it("a resync reads the routes index and one route table index, then only the routes index", async () => {
    const { api, gets } = service({
      "/api/routes": [ROUTE({ next_hop: "/api/network_gateways/3" })],
      "/api/route_tables": [ROUTE_TABLE],
      "/api/route_tables/1/routes/4": ROUTE({ next_hop: "/api/network_gateways/3" }),
    });
    const kind = createRouteKind();
    const [first] = await kind.index!.list(api, "");
    expect(kind.atProvider(first)).toMatchObject({
      nextHopHref: "/api/network_gateways/3",
      networkHref: "/api/networks/1",
    });
    expect(kind.diff(routeDesired, first)).toEqual([]);
    await kind.index!.list(api, "");
    expect(gets).toEqual(["/api/routes", "/api/route_tables", "/api/routes"]);
    // The reconcile's own observe finds the route table known: one call, the route itself.
    const shown = await kind.observe(api, "/api/route_tables/1/routes/4", routeDesired);
    expect(shown?.networkHref).toBe("/api/networks/1");
    expect(gets.slice(3)).toEqual(["/api/route_tables/1/routes/4"]);
  });
});
