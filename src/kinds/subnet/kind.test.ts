import { describe, expect, it } from "vitest";
import type { DesiredContext, ResolvedReference } from "../../runtime/sdk/index.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import type { TableDesired, TableObserved } from "../shared/table-kind.ts";
import { checkSubnetCidr, type NetworkFacts, subnetKind } from "./kind.ts";
import { type SubnetClient, subnetSpecSchema } from "./schema.ts";

const network: NetworkFacts = {
  href: "/api/networks/1",
  cloudHref: "/api/clouds/1",
  cidrBlock: "10.10.0.0/16",
};

const S = "/api/clouds/1/subnets/5";
const rep = {
  name: "main-a",
  description: null,
  cidr_block: "10.10.1.0/24",
  state: "available",
  visibility: "private",
  is_default: false,
  links: [
    { rel: "self", href: S },
    { rel: "datacenter", href: "/api/clouds/1/datacenters/1" },
    { rel: "effective_route_table", href: "/api/route_tables/1" },
    { rel: "network", href: "/api/networks/1" },
  ],
};

/** The Network custom resource the subnets name, as resolved. */
const main: ResolvedReference = {
  kind: "Network",
  name: "main",
  href: network.href,
  atProvider: { cloudHref: network.cloudHref, cidrBlock: network.cidrBlock },
};

const calls: string[] = [];
const client = { subnets: fakeResource([rep], calls, S) } as unknown as SubnetClient;
const observed: TableObserved = (await subnetKind.observe(client, S, {
  cloudHref: "/api/clouds/1",
  fields: {},
}))!;

/** The desired state of a subnet of network `main` named main-a, the spec given over it. */
function desired(over: Record<string, unknown> = {}, refs: Record<string, ResolvedReference> = {}) {
  const spec = subnetSpecSchema.parse({ networkRef: { name: "main" }, cidrBlock: "10.10.1.0/24", ...over });
  return subnetKind.desired(spec, desiredContext(client, "main-a", { networkRef: main, ...refs }));
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
      ) as SubnetClient,
      refs: {
        networkRef: {
          kind: "Network",
          name: "main",
          href: "/api/networks/1",
          atProvider: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16" },
        },
      },
      log: undefined as never,
    } as DesiredContext<SubnetClient>;
    await expect(subnetKind.desired(spec, ctx)).rejects.toThrow(
      /spec\.cidrBlock: 172\.16\.0\.0\/24 is not inside/,
    );
  });

  it("takes the cloud from the network", async () => {
    const spec = subnetSpecSchema.parse({ networkRef: { name: "main" }, cidrBlock: "10.10.3.0/24" });
    const d = await subnetKind.desired(spec, desiredContext(client, "meta", { networkRef: main }));
    expect(d.cloudHref).toBe("/api/clouds/1");
    expect(d.name).toBe("meta");
    expect(subnetKind.references(spec)).toEqual([{ field: "networkRef", kind: "Network", name: "main" }]);
  });
});

describe("subnet diff", () => {
  const cases: {
    reason: string;
    spec?: Record<string, unknown>;
    refs?: Record<string, ResolvedReference>;
    want: string[];
  }[] = [
    { reason: "in sync", want: [] },
    { reason: "renamed", spec: { name: "b" }, want: ["name"] },
    { reason: "description", spec: { description: "x" }, want: ["description"] },
    { reason: "CIDR (updatable)", spec: { cidrBlock: "10.10.2.0/24" }, want: ["cidrBlock"] },
    {
      reason: "own route table chosen",
      spec: { routeTableHref: "/api/route_tables/2" },
      want: ["routeTableHref"],
    },
    { reason: "reset to default when already default", spec: { routeTableHref: "" }, want: [] },
    {
      reason: "other network (create-only)",
      refs: { networkRef: { ...main, href: "/api/networks/2" } },
      want: ["networkRef"],
    },
    {
      reason: "other datacenter (create-only)",
      spec: { datacenterHref: "/api/clouds/1/datacenters/2" },
      want: ["datacenterHref"],
    },
  ];
  for (const c of cases)
    it(c.reason, async () =>
      expect(subnetKind.diff(await desired(c.spec, c.refs), observed).map((d) => d.field)).toEqual(c.want),
    );

  it("an empty routeTableHref resets a subnet that has its own table", async () => {
    const own = { ...observed, routeTableHref: "/api/route_tables/2" };
    const d = await desired({ routeTableHref: "" });
    const diff = subnetKind.diff(d, own);
    expect(diff.map((x) => x.field)).toEqual(["routeTableHref"]);
    calls.length = 0;
    await subnetKind.update(client, S, d, own, diff);
    expect(calls).toEqual([`update ${S} {"route_table_href":""}`]);
  });

  it("a RouteTable by name: its href, set by an update, reported under routeTableRef; one of another network stops", async () => {
    const spec = { routeTableRef: { name: "public" } };
    expect(
      subnetKind.references(
        subnetSpecSchema.parse({ ...spec, networkRef: { name: "main" }, cidrBlock: "10.10.1.0/24" }),
      ),
    ).toEqual([
      { field: "networkRef", kind: "Network", name: "main" },
      { field: "routeTableRef", kind: "RouteTable", name: "public" },
    ]);
    const table = {
      kind: "RouteTable",
      name: "public",
      href: "/api/route_tables/2",
      atProvider: { networkHref: "/api/networks/1" },
    };
    const d = await desired(spec, { routeTableRef: table });
    expect(d).toMatchObject({
      routeTableHref: "/api/route_tables/2",
      fields: { routeTableHref: "routeTableRef" },
    });
    const diff = subnetKind.diff(d, observed);
    expect(diff.map((x) => x.field)).toEqual(["routeTableRef"]);
    calls.length = 0;
    await subnetKind.update(client, S, d, observed, diff);
    expect(calls).toEqual([`update ${S} {"route_table_href":"/api/route_tables/2"}`]);
    // Associated by hand with another table: the same field, put back.
    expect(subnetKind.diff(d, { ...observed, routeTableHref: "/api/route_tables/9" })[0]).toMatchObject({
      field: "routeTableRef",
      desired: "/api/route_tables/2",
      observed: "/api/route_tables/9",
    });
    await expect(
      desired(spec, { routeTableRef: { ...table, atProvider: { networkHref: "/api/networks/2" } } }),
    ).rejects.toThrow(
      "spec.routeTableRef: RouteTable public is in network /api/networks/2, not in the subnet's network /api/networks/1",
    );
  });

  it("create parameters carry no route table; immutable lists the create-only fields", async () => {
    calls.length = 0;
    const d: TableDesired = await desired({
      datacenterHref: "/api/clouds/1/datacenters/1",
      routeTableHref: "/api/route_tables/2",
    });
    await subnetKind.create(client, d);
    expect(calls).toEqual([
      'create /api/clouds/1 {"network_href":"/api/networks/1","datacenter_href":"/api/clouds/1/datacenters/1","cidr_block":"10.10.1.0/24","name":"main-a"}',
    ]);
    expect(subnetKind.immutable).toEqual(["networkRef", "networkHref", "datacenterHref"]);
  });

  it("is not ready while pending; atProvider records the cloud for the per-cloud index", () => {
    expect(subnetKind.notReady?.({ ...observed, state: "pending" })).toMatch(/pending/);
    expect(subnetKind.notReady?.(observed)).toBeUndefined();
    const at = subnetKind.atProvider(observed);
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
