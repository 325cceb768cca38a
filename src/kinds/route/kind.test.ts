import { describe, expect, it } from "vitest";
import type { ResolvedReference } from "../../runtime/sdk/index.ts";
import { InvalidSpecError } from "../../runtime/sdk/index.ts";
import { desiredContext } from "../shared/context.testing.ts";
import type { TableDesired, TableObserved } from "../shared/table-kind.ts";
import {
  createRouteKind,
  diffRoute,
  routeKind,
  routeUpdateParams,
  sameRoute,
  validateRoute,
} from "./kind.ts";
import { type RouteClient, routeSpecSchema } from "./schema.ts";

const R = "/api/route_tables/1/routes/4";
const gatewayRoute = {
  description: null,
  destination_cidr_block: "0.0.0.0/0",
  next_hop_type: "network_gateway",
  next_hop_ip: null,
  next_hop_url: null,
  state: "available",
  links: [
    { rel: "self", href: R },
    { rel: "route_table", href: "/api/route_tables/1" },
    { rel: "cloud", href: "/api/clouds/1" },
    { rel: "next_hop", href: "/api/network_gateways/3" },
  ],
  cloud_specific_attributes: null,
};

/** A fake service: the routes given and route table 1 of network 1, recording the writes. */
function fake(routes: object[] = [gatewayRoute]) {
  const calls: string[] = [];
  const table = {
    links: [
      { rel: "self", href: "/api/route_tables/1" },
      { rel: "network", href: "/api/networks/1" },
    ],
  };
  const self = (r: { links: { rel: string; href: string }[] }) => r.links[0]!.href;
  const client = {
    routes: {
      show: async (href: string) => routes.find((r) => self(r as never) === href),
      index: async () => routes,
      create: async (params: object) => {
        calls.push(`create ${JSON.stringify(params)}`);
        return R;
      },
      update: async (href: string, params: object) =>
        void calls.push(`update ${href} ${JSON.stringify(params)}`),
    },
    routeTables: { show: async () => table, index: async () => [table] },
  } as unknown as RouteClient;
  return { client, calls };
}

/** The route as a new Route kind observes it (no route table network known beforehand). */
const observe = async (rep: object = gatewayRoute) =>
  (await createRouteKind().observe(fake([rep]).client, (rep as typeof gatewayRoute).links[0]!.href, {
    fields: {},
  }))!;
const observed: TableObserved = await observe();

function desired(over: Record<string, unknown> = {}): TableDesired {
  return {
    routeTableHref: "/api/route_tables/1",
    destinationCidrBlock: "0.0.0.0/0",
    nextHopType: "network_gateway",
    nextHopHref: "/api/network_gateways/3",
    fields: { routeTableHref: "networkRef", nextHopHref: "nextHopGatewayRef" },
    ...over,
  };
}

const ref = (kind: string, name: string, href: string, atProvider = {}): ResolvedReference => ({
  kind,
  name,
  href,
  atProvider,
});

describe("route desired state", () => {
  it("uses the network's default route table and the gateway's href", async () => {
    const spec = routeSpecSchema.parse({
      networkRef: { name: "main" },
      destinationCidrBlock: "0.0.0.0/0",
      nextHopType: "network_gateway",
      nextHopGatewayRef: { name: "igw" },
    });
    const refs = {
      networkRef: ref("Network", "main", "/api/networks/1", { defaultRouteTableHref: "/api/route_tables/1" }),
      nextHopGatewayRef: ref("NetworkGateway", "igw", "/api/network_gateways/3"),
    };
    const d = await routeKind.desired(spec, desiredContext(fake().client, "r", refs));
    expect(d).toMatchObject(desired());
    expect(diffRoute(d, observed)).toEqual([]);
    expect(routeKind.references(spec)).toEqual([
      { field: "networkRef", kind: "Network", name: "main" },
      { field: "nextHopGatewayRef", kind: "NetworkGateway", name: "igw" },
    ]);
  });

  it("a RouteTable by name: its href, the reference counted, a move to another table reported under routeTableRef", async () => {
    const spec = routeSpecSchema.parse({
      routeTableRef: { name: "public" },
      destinationCidrBlock: "0.0.0.0/0",
      nextHopType: "network_gateway",
      nextHopGatewayRef: { name: "igw" },
    });
    expect(routeKind.references(spec)).toEqual([
      { field: "routeTableRef", kind: "RouteTable", name: "public" },
      { field: "nextHopGatewayRef", kind: "NetworkGateway", name: "igw" },
    ]);
    const refs = {
      routeTableRef: ref("RouteTable", "public", "/api/route_tables/2"),
      nextHopGatewayRef: ref("NetworkGateway", "igw", "/api/network_gateways/3"),
    };
    const d = await routeKind.desired(spec, desiredContext(fake().client, "r", refs));
    expect(d).toMatchObject(
      desired({
        routeTableHref: "/api/route_tables/2",
        fields: { routeTableHref: "routeTableRef", nextHopHref: "nextHopGatewayRef" },
      }),
    );
    expect(diffRoute(d, observed).map((x) => x.field)).toEqual(["routeTableRef"]);
    expect(routeKind.immutable).toContain("routeTableRef");
  });

  it("validate() stops a spec that breaks a next-hop rule, naming the field", () => {
    const bad = routeSpecSchema.parse({
      routeTableHref: "/api/route_tables/1",
      destinationCidrBlock: "0.0.0.0/0",
      nextHopType: "ip_string",
    });
    expect(() => validateRoute(bad)).toThrow(InvalidSpecError);
    expect(() => validateRoute(bad)).toThrow(
      /spec\.nextHopIp: nextHopIp is required when nextHopType is ip_string/,
    );
  });
});

describe("diffRoute", () => {
  const cases: {
    reason: string;
    desired: TableDesired;
    observed?: Partial<TableObserved>;
    want: string[];
  }[] = [
    { reason: "in sync", desired: desired(), want: [] },
    { reason: "description", desired: desired({ description: "x" }), want: ["description"] },
    {
      reason: "destination (updatable)",
      desired: desired({ destinationCidrBlock: "10.0.0.0/8" }),
      want: ["destinationCidrBlock"],
    },
    {
      reason: "another gateway",
      desired: desired({ nextHopHref: "/api/network_gateways/9" }),
      want: ["nextHopGatewayRef"],
    },
    {
      reason: "gateway to ip (type and member)",
      desired: desired({ nextHopType: "ip_string", nextHopHref: undefined, nextHopIp: "10.0.0.9" }),
      want: ["nextHopType", "nextHopIp"],
    },
    {
      reason: "route table moved (replace)",
      desired: desired({ routeTableHref: "/api/route_tables/2" }),
      want: ["networkRef"],
    },
    {
      reason: "url changed (replace)",
      desired: desired({ nextHopType: "url", nextHopHref: undefined, nextHopUrl: "https://b" }),
      observed: { nextHopType: "url", nextHopHref: null, nextHopUrl: "https://a" },
      want: ["nextHopUrl"],
    },
    {
      reason: "gateway to url (replace)",
      desired: desired({ nextHopType: "url", nextHopHref: undefined, nextHopUrl: "https://b" }),
      want: ["nextHopUrl"],
    },
    {
      reason: "instance tags (replace)",
      desired: desired({ cloudSpecificAttributes: { instanceTags: ["web"] } }),
      want: ["cloudSpecificAttributes"],
    },
    {
      reason: "priority (replace)",
      desired: desired({ cloudSpecificAttributes: { priority: 5 } }),
      want: ["cloudSpecificAttributes"],
    },
    {
      reason: "next hop fields not shown by the service are not compared",
      desired: desired({ nextHopType: "ip_string", nextHopHref: undefined, nextHopIp: "10.0.0.9" }),
      observed: { nextHopType: "ip_string", nextHopHref: undefined, nextHopIp: undefined },
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.reason, () =>
      expect(routeKind.diff(c.desired, { ...observed, ...c.observed }).map((d) => d.field)).toEqual(c.want),
    );
  }

  it("replaces (create before delete) exactly for what update cannot carry", () => {
    expect(routeKind.replace).toBe("createBeforeDelete");
    expect(routeKind.immutable).toEqual([
      "networkRef",
      "routeTableRef",
      "routeTableHref",
      "nextHopUrl",
      "cloudSpecificAttributes",
    ]);
    for (const f of [
      "description",
      "destinationCidrBlock",
      "nextHopType",
      "nextHopIp",
      "nextHopGatewayRef",
    ]) {
      expect(routeKind.immutable).not.toContain(f);
    }
  });
});

describe("the observed route", () => {
  it("reads the next hop from the next_hop link only, and the network only as given (from the route table)", async () => {
    // The simulator's extras (a next_hop_href attribute, a network link) are not in the real route: ignored.
    const extra = {
      ...gatewayRoute,
      next_hop_href: "/api/network_gateways/7",
      links: [
        { rel: "self", href: R },
        { rel: "route_table", href: "/api/route_tables/1" },
        { rel: "next_hop", href: "/api/network_gateways/3" },
        { rel: "network", href: "/api/networks/7" },
      ],
    };
    expect(await observe(extra)).toMatchObject({
      nextHopHref: "/api/network_gateways/3",
      networkHref: "/api/networks/1",
    });
    const tableless = { ...extra, links: extra.links.filter((l) => l.rel !== "route_table") };
    expect((await observe(tableless)).networkHref).toBeUndefined();
  });

  it("an href-type route without a next_hop link has none (null); other types have no href hop (undefined)", async () => {
    const route = (type: string) => ({
      destination_cidr_block: "0.0.0.0/0",
      next_hop_type: type,
      links: [{ rel: "self", href: "/api/routes/4" }],
    });
    expect((await observe(route("instance"))).nextHopHref).toBeNull();
    expect((await observe(route("ip_string"))).nextHopHref).toBeUndefined();
  });
});

describe("route parameters", () => {
  it("create carries everything, update only what differs (a new type with its member)", async () => {
    const { client, calls } = fake();
    await routeKind.create(
      client,
      desired({ description: "d", cloudSpecificAttributes: { instanceTags: ["a"], priority: 1 } }),
    );
    expect(JSON.parse(calls[0]!.slice("create ".length))).toEqual({
      route_table_href: "/api/route_tables/1",
      destination_cidr_block: "0.0.0.0/0",
      next_hop_type: "network_gateway",
      next_hop_href: "/api/network_gateways/3",
      description: "d",
      cloud_specific_attributes: { instance_tags: ["a"], priority: 1 },
    });
    const toIp = desired({
      nextHopType: "ip_string",
      nextHopHref: undefined,
      nextHopIp: "10.0.0.9",
      description: "x",
    });
    expect(routeUpdateParams(diffRoute(toIp, observed), toIp)).toEqual({
      description: "x",
      next_hop_type: "ip_string",
      next_hop_ip: "10.0.0.9",
    });
    const hop = desired({ nextHopHref: "/api/network_gateways/9" });
    expect(routeUpdateParams(diffRoute(hop, observed), hop)).toEqual({
      next_hop_href: "/api/network_gateways/9",
    });
  });

  it("a pending create is matched by table, destination and next hop, so a route being replaced is not", () => {
    expect(sameRoute(desired(), observed)).toBe(true);
    expect(sameRoute(desired({ routeTableHref: "/api/route_tables/2" }), observed)).toBe(false);
    expect(sameRoute(desired({ nextHopHref: "/api/network_gateways/9" }), observed)).toBe(false);
    expect(sameRoute(desired({ cloudSpecificAttributes: { instanceTags: ["x"] } }), observed)).toBe(false);
  });
});
