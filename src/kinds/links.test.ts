import { describe, expect, it } from "vitest";
import type { AnyManagedKind } from "../runtime/sdk/index.ts";
import { deploymentKind } from "./deployment/kind.ts";
import { networkKind } from "./network/kind.ts";
import { networkGatewayKind } from "./network-gateway/kind.ts";
import { permissionKind } from "./permission/kind.ts";
import { recurringVolumeAttachmentKind } from "./recurring-volume-attachment/kind.ts";
import { routeKind } from "./route/kind.ts";
import { subnetKind } from "./subnet/kind.ts";
import { volumeKind } from "./volume/kind.ts";

/**
 * The hrefs each kind's create links to (checked by the runtime before the create): every raw
 * href field whose missing object the service refuses at create (or at the update that follows
 * it), named by its spec field. Specs are parsed by the kind's schema, so a renamed field fails here.
 */
const cases: { kind: AnyManagedKind; spec: Record<string, unknown>; links: [string, string][] }[] = [
  {
    kind: volumeKind,
    spec: {
      cloudHref: "/api/clouds/1",
      datacenterHref: "/api/clouds/1/datacenters/1",
      deploymentHref: "/api/deployments/1",
      imageHref: "/api/clouds/1/images/1",
      volumeTypeHref: "/api/clouds/1/volume_types/1",
      placementGroupHref: "/api/clouds/1/placement_groups/1",
      allowedInstanceHrefs: ["/api/clouds/1/instances/1", "/api/clouds/1/instances/2"],
    },
    links: [
      ["cloudHref", "/api/clouds/1"],
      ["datacenterHref", "/api/clouds/1/datacenters/1"],
      ["deploymentHref", "/api/deployments/1"],
      ["volumeTypeHref", "/api/clouds/1/volume_types/1"],
      ["imageHref", "/api/clouds/1/images/1"],
      ["allowedInstanceHrefs[0]", "/api/clouds/1/instances/1"],
      ["allowedInstanceHrefs[1]", "/api/clouds/1/instances/2"],
    ],
  },
  {
    kind: volumeKind,
    spec: { cloud: { name: "c" }, parentVolumeSnapshotHref: "/api/clouds/1/volume_snapshots/1" },
    links: [["parentVolumeSnapshotHref", "/api/clouds/1/volume_snapshots/1"]],
  },
  {
    kind: recurringVolumeAttachmentKind,
    spec: {
      cloudHref: "/api/clouds/1",
      storageHref: "/api/clouds/1/volumes/1",
      runnableHref: "/api/servers/1",
      volumeTypeHref: "/api/clouds/1/volume_types/1",
      device: "/dev/xvdb",
    },
    links: [
      ["cloudHref", "/api/clouds/1"],
      ["runnableHref", "/api/servers/1"],
      ["storageHref", "/api/clouds/1/volumes/1"],
      ["volumeTypeHref", "/api/clouds/1/volume_types/1"],
    ],
  },
  {
    kind: recurringVolumeAttachmentKind,
    spec: {
      cloudHref: "/api/clouds/1",
      storageRef: { name: "v" },
      runnableHref: "/api/servers/1",
      device: "/dev/xvdb",
    },
    links: [
      ["cloudHref", "/api/clouds/1"],
      ["runnableHref", "/api/servers/1"],
    ],
  },
  {
    kind: permissionKind,
    spec: { userHref: "/api/users/2", roleTitle: "observer" },
    links: [["userHref", "/api/users/2"]],
  },
  {
    kind: deploymentKind,
    spec: { resourceGroupHref: "/api/resource_groups/1" },
    links: [["resourceGroupHref", "/api/resource_groups/1"]],
  },
  { kind: deploymentKind, spec: {}, links: [] },
  {
    kind: networkKind,
    spec: {
      cloudHref: "/api/clouds/1",
      cidrBlock: "10.0.0.0/16",
      deploymentHref: "/api/deployments/1",
      routeTableHref: "/api/route_tables/1",
    },
    links: [
      ["deploymentHref", "/api/deployments/1"],
      ["routeTableHref", "/api/route_tables/1"],
    ],
  },
  {
    kind: subnetKind,
    spec: {
      networkHref: "/api/networks/1",
      cidrBlock: "10.0.1.0/24",
      datacenterHref: "/api/clouds/1/datacenters/1",
      routeTableHref: "/api/route_tables/1",
    },
    links: [
      ["datacenterHref", "/api/clouds/1/datacenters/1"],
      ["routeTableHref", "/api/route_tables/1"],
    ],
  },
  {
    kind: networkGatewayKind,
    spec: { cloudHref: "/api/clouds/1", type: "internet", networkHref: "/api/networks/1" },
    links: [["networkHref", "/api/networks/1"]],
  },
  {
    kind: routeKind,
    spec: {
      routeTableHref: "/api/route_tables/1",
      destinationCidrBlock: "0.0.0.0/0",
      nextHopType: "instance",
      nextHopHref: "/api/clouds/1/instances/1",
    },
    links: [
      ["routeTableHref", "/api/route_tables/1"],
      ["nextHopHref", "/api/clouds/1/instances/1"],
    ],
  },
  {
    kind: routeKind,
    spec: {
      networkRef: { name: "n" },
      destinationCidrBlock: "0.0.0.0/0",
      nextHopType: "network_gateway",
      nextHopGatewayRef: { name: "g" },
    },
    links: [],
  },
];

describe("links each kind declares", () => {
  it.each(cases.map((c, i) => ({ ...c, name: `${c.kind.kind} #${i}` })))("$name", ({ kind, spec, links }) => {
    const parsed = kind.schema.parse(spec);
    expect(kind.links?.(parsed).map((l) => [l.field, l.href])).toEqual(links);
  });
});
