import { describe, expect, it } from "vitest";
import type { DesiredContext } from "../../runtime/sdk/index.ts";
import type { NetClient } from "../network/api.ts";
import {
  checkSubnetCidr,
  desiredSubnet,
  diffSubnet,
  type NetworkFacts,
  type SubnetDesired,
  type SubnetObserved,
  subnetAtProvider,
  subnetCreateParams,
  subnetKind,
  subnetUpdateParams,
  toSubnetObserved,
} from "./kind.ts";
import { subnetSpecSchema } from "./schema.ts";

const network: NetworkFacts = {
  href: "/api/networks/1",
  cloudHref: "/api/clouds/1",
  cidrBlock: "10.10.0.0/16",
};

const observed: SubnetObserved = toSubnetObserved(
  {
    name: "main-a",
    description: null,
    cidr_block: "10.10.1.0/24",
    state: "available",
    visibility: "private",
    is_default: false,
    links: [
      { rel: "self", href: "/api/clouds/1/subnets/5" },
      { rel: "datacenter", href: "/api/clouds/1/datacenters/1" },
      { rel: "effective_route_table", href: "/api/route_tables/1" },
      { rel: "network", href: "/api/networks/1" },
    ],
  },
  "/api/clouds/1",
);

function desired(over: Partial<SubnetDesired> = {}): SubnetDesired {
  return { network, networkField: "networkRef", cidrBlock: "10.10.1.0/24", name: "main-a", ...over };
}

describe("subnet CIDR inside the network's", () => {
  it("accepts a contained block and names cidrBlock otherwise", () => {
    expect(() => checkSubnetCidr("10.10.1.0/24", network)).not.toThrow();
    expect(() => checkSubnetCidr("10.20.1.0/24", network)).toThrow(
      /spec\.cidrBlock: 10\.20\.1\.0\/24 is not inside the CIDR block 10\.10\.0\.0\/16 of network \/api\/networks\/1/,
    );
    expect(() => checkSubnetCidr("10.0.0.0/8", network)).toThrow(/spec\.cidrBlock/);
    expect(() => checkSubnetCidr("10.20.1.0/24", { ...network, cidrBlock: undefined })).not.toThrow();
  });

  it("checks it before any call: desired() with a network ref makes none", async () => {
    const spec = subnetSpecSchema.parse({ networkRef: { name: "main" }, cidrBlock: "172.16.0.0/24" });
    const ctx = {
      meta: { name: "s", namespace: "n" },
      client: new Proxy(
        {},
        {
          get: () => {
            throw new Error("no call expected");
          },
        },
      ) as NetClient,
      refs: {
        networkRef: {
          kind: "Network",
          name: "main",
          href: "/api/networks/1",
          atProvider: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16" },
        },
      },
      log: undefined as never,
    } as DesiredContext<NetClient>;
    await expect(subnetKind.desired(spec, ctx)).rejects.toThrow(
      /spec\.cidrBlock: 172\.16\.0\.0\/24 is not inside/,
    );
  });

  it("takes the cloud from the network", async () => {
    const spec = subnetSpecSchema.parse({ networkRef: { name: "main" }, cidrBlock: "10.10.3.0/24" });
    const d = desiredSubnet(spec, "meta", network);
    expect(d.network.cloudHref).toBe("/api/clouds/1");
    expect(d.name).toBe("meta");
    expect(subnetKind.references(spec)).toEqual([{ field: "networkRef", kind: "Network", name: "main" }]);
  });
});

describe("diffSubnet", () => {
  const cases: { reason: string; desired: SubnetDesired; want: string[] }[] = [
    { reason: "in sync", desired: desired(), want: [] },
    { reason: "renamed", desired: desired({ name: "b" }), want: ["name"] },
    { reason: "description", desired: desired({ description: "x" }), want: ["description"] },
    { reason: "CIDR (updatable)", desired: desired({ cidrBlock: "10.10.2.0/24" }), want: ["cidrBlock"] },
    {
      reason: "own route table chosen",
      desired: desired({ routeTableHref: "/api/route_tables/2" }),
      want: ["routeTableHref"],
    },
    { reason: "reset to default when already default", desired: desired({ routeTableHref: "" }), want: [] },
    {
      reason: "other network (create-only)",
      desired: desired({ network: { ...network, href: "/api/networks/2" } }),
      want: ["networkRef"],
    },
    {
      reason: "other datacenter (create-only)",
      desired: desired({ datacenterHref: "/api/clouds/1/datacenters/2" }),
      want: ["datacenterHref"],
    },
  ];
  for (const c of cases)
    it(c.reason, () => expect(diffSubnet(c.desired, observed).map((d) => d.field)).toEqual(c.want));

  it("an empty routeTableHref resets a subnet that has its own table", () => {
    const own = { ...observed, routeTableHref: "/api/route_tables/2" };
    const d = desired({ routeTableHref: "" });
    const diff = diffSubnet(d, own);
    expect(diff.map((x) => x.field)).toEqual(["routeTableHref"]);
    expect(subnetUpdateParams(diff, d)).toEqual({ route_table_href: "" });
  });

  it("a RouteTable by name: its href, set by an update, reported under routeTableRef; one of another network stops", () => {
    const spec = subnetSpecSchema.parse({
      networkRef: { name: "main" },
      cidrBlock: "10.10.1.0/24",
      routeTableRef: { name: "public" },
    });
    expect(subnetKind.references(spec)).toEqual([
      { field: "networkRef", kind: "Network", name: "main" },
      { field: "routeTableRef", kind: "RouteTable", name: "public" },
    ]);
    const table = {
      kind: "RouteTable",
      name: "public",
      href: "/api/route_tables/2",
      atProvider: { networkHref: "/api/networks/1" },
    };
    const d = desiredSubnet(spec, "main-a", network, table);
    expect(d).toMatchObject({ routeTableHref: "/api/route_tables/2", routeTableField: "routeTableRef" });
    const diff = diffSubnet(d, observed);
    expect(diff.map((x) => x.field)).toEqual(["routeTableRef"]);
    expect(subnetUpdateParams(diff, d)).toEqual({ route_table_href: "/api/route_tables/2" });
    // Associated by hand with another table: the same field, put back.
    expect(diffSubnet(d, { ...observed, routeTableHref: "/api/route_tables/9" })[0]).toMatchObject({
      field: "routeTableRef",
      desired: "/api/route_tables/2",
      observed: "/api/route_tables/9",
    });
    expect(() =>
      desiredSubnet(spec, "main-a", network, { ...table, atProvider: { networkHref: "/api/networks/2" } }),
    ).toThrow(
      "spec.routeTableRef: RouteTable public is in network /api/networks/2, not in the subnet's network /api/networks/1",
    );
  });

  it("create parameters carry no route table; immutable lists the create-only fields", () => {
    expect(
      subnetCreateParams(
        desired({ datacenterHref: "/api/clouds/1/datacenters/1", routeTableHref: "/api/route_tables/2" }),
      ),
    ).toEqual({
      cidr_block: "10.10.1.0/24",
      network_href: "/api/networks/1",
      name: "main-a",
      datacenter_href: "/api/clouds/1/datacenters/1",
    });
    expect(subnetKind.immutable).toEqual(["networkRef", "networkHref", "datacenterHref"]);
  });

  it("is not ready while pending; atProvider records the cloud for the per-cloud index", () => {
    expect(subnetKind.notReady?.({ ...observed, state: "pending" })).toMatch(/pending/);
    expect(subnetKind.notReady?.(observed)).toBeUndefined();
    const at = subnetAtProvider(observed);
    expect(at.cloudHref).toBe("/api/clouds/1");
    expect(
      subnetKind.index?.scope(
        subnetSpecSchema.parse({ networkHref: "/api/networks/1", cidrBlock: "10.0.0.0/24" }),
        { atProvider: at },
      ),
    ).toBe("/api/clouds/1");
    expect(
      subnetKind.index?.scope(
        subnetSpecSchema.parse({ networkHref: "/api/networks/1", cidrBlock: "10.0.0.0/24" }),
        {},
      ),
    ).toBeUndefined();
  });
});
