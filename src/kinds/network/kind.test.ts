import { describe, expect, it } from "vitest";
import {
  desiredNetwork,
  destroyNetwork,
  diffNetwork,
  type NetworkDesired,
  type NetworkObserved,
  networkAtProvider,
  networkCreateParams,
  networkKind,
  networkUpdateParams,
  toNetworkObserved,
} from "./kind.ts";
import { networkSpecSchema } from "./schema.ts";

const observed: NetworkObserved = toNetworkObserved({
  name: "main",
  description: null,
  cidr_block: "10.10.0.0/16",
  instance_tenancy: "default",
  is_default: false,
  resource_uid: "vpc-1",
  links: [
    { rel: "self", href: "/api/networks/1" },
    { rel: "cloud", href: "/api/clouds/1" },
    { rel: "default_route_table", href: "/api/route_tables/1" },
  ],
});

function desired(over: Partial<NetworkDesired> = {}): NetworkDesired {
  return {
    cloudHref: "/api/clouds/1",
    cloudField: "cloudHref",
    name: "main",
    cidrBlock: "10.10.0.0/16",
    ...over,
  };
}

describe("network desired state", () => {
  it("defaults the name, takes the deployment from the ref or the href", () => {
    const spec = networkSpecSchema.parse({ cloud: { name: "EC2" }, deploymentRef: { name: "web" } });
    const d = desiredNetwork(spec, "meta", "/api/clouds/1", "/api/deployments/9");
    expect(d).toMatchObject({ name: "meta", cloudField: "cloud", deploymentHref: "/api/deployments/9" });
    expect(networkKind.references(spec)).toEqual([
      { field: "deploymentRef", kind: "Deployment", name: "web" },
    ]);
  });
});

describe("defaultRouteTableRef", () => {
  const spec = networkSpecSchema.parse({
    cloudHref: "/api/clouds/1",
    defaultRouteTableRef: { name: "private" },
  });
  const table = {
    kind: "RouteTable",
    name: "private",
    href: "/api/route_tables/2",
    atProvider: { networkHref: "/api/networks/1" },
  };

  it("is an after-create association: the table names the network, so no create-time dependency", () => {
    expect(networkKind.references(spec)).toEqual([
      { field: "defaultRouteTableRef", kind: "RouteTable", name: "private", afterCreate: true },
    ]);
    // Until the table is usable the runtime gives no reference: the default route table is not managed yet.
    expect(diffNetwork(desiredNetwork(spec, "main", "/api/clouds/1"), observed)).toEqual([]);
  });

  it("once usable: set by the update, a change reported under defaultRouteTableRef", async () => {
    const d = desiredNetwork(spec, "main", "/api/clouds/1", undefined, table);
    const diff = diffNetwork(d, observed);
    expect(diff).toEqual([
      { field: "defaultRouteTableRef", desired: "/api/route_tables/2", observed: "/api/route_tables/1" },
    ]);
    expect(networkCreateParams(d)).not.toHaveProperty("route_table_href");
    const calls: unknown[] = [];
    const client = { networks: { update: async (...args: unknown[]) => void calls.push(args) } } as never;
    await networkKind.update(client, "/api/networks/1", d, observed, diff);
    expect(calls).toEqual([["/api/networks/1", { route_table_href: "/api/route_tables/2" }]]);
  });

  it("a RouteTable of another network stops before the update, naming the field", async () => {
    const d = desiredNetwork(spec, "main", "/api/clouds/1", undefined, {
      ...table,
      atProvider: { networkHref: "/api/networks/7" },
    });
    const client = { networks: { update: async () => expect.fail("no update") } } as never;
    await expect(
      networkKind.update(client, "/api/networks/1", d, observed, diffNetwork(d, observed)),
    ).rejects.toThrow(
      "spec.defaultRouteTableRef: route table /api/route_tables/2 is in network /api/networks/7, not in this network /api/networks/1",
    );
  });
});

describe("diffNetwork", () => {
  const cases: { reason: string; desired: NetworkDesired; want: string[] }[] = [
    { reason: "in sync", desired: desired(), want: [] },
    { reason: "renamed", desired: desired({ name: "x" }), want: ["name"] },
    {
      reason: "description set (null reads as empty)",
      desired: desired({ description: "d" }),
      want: ["description"],
    },
    { reason: "empty description matches null", desired: desired({ description: "" }), want: [] },
    {
      reason: "CIDR changed (create-only)",
      desired: desired({ cidrBlock: "10.20.0.0/16" }),
      want: ["cidrBlock"],
    },
    {
      reason: "cloud changed, by href",
      desired: desired({ cloudHref: "/api/clouds/3" }),
      want: ["cloudHref"],
    },
    {
      reason: "cloud changed, by name",
      desired: desired({ cloudHref: "/api/clouds/3", cloudField: "cloud" }),
      want: ["cloud"],
    },
    { reason: "tenancy", desired: desired({ instanceTenancy: "dedicated" }), want: ["instanceTenancy"] },
    {
      reason: "deployment attached",
      desired: desired({ deploymentHref: "/api/deployments/1" }),
      want: ["deploymentHref"],
    },
    {
      reason: "default route table chosen",
      desired: desired({ routeTableHref: "/api/route_tables/2" }),
      want: ["routeTableHref"],
    },
    {
      reason: "default route table unchanged",
      desired: desired({ routeTableHref: "/api/route_tables/1" }),
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.reason, () => expect(diffNetwork(c.desired, observed).map((d) => d.field)).toEqual(c.want));
  }

  it("lists the create-only fields as immutable (Stalled when a change gets through)", () => {
    expect(networkKind.immutable).toEqual(["cloudHref", "cloud", "cidrBlock", "instanceTenancy"]);
    expect(networkKind.replace).toBeUndefined();
  });
});

describe("network parameters and atProvider", () => {
  it("creates with the create fields only, updates only what differs", () => {
    const d = desired({
      description: "d",
      instanceTenancy: "dedicated",
      deploymentHref: "/api/deployments/1",
      routeTableHref: "/api/route_tables/2",
    });
    expect(networkCreateParams(d)).toEqual({
      cloud_href: "/api/clouds/1",
      name: "main",
      description: "d",
      cidr_block: "10.10.0.0/16",
      instance_tenancy: "dedicated",
      deployment_href: "/api/deployments/1",
    });
    expect(
      networkUpdateParams(
        diffNetwork(desired({ name: "x", routeTableHref: "/api/route_tables/2" }), observed),
        desired({ name: "x", routeTableHref: "/api/route_tables/2" }),
      ),
    ).toEqual({
      name: "x",
      route_table_href: "/api/route_tables/2",
    });
  });

  it("atProvider has the default route table and the cloud, and no nulls (status storage drops them)", () => {
    const at = networkAtProvider(observed);
    expect(at).toMatchObject({
      defaultRouteTableHref: "/api/route_tables/1",
      cloudHref: "/api/clouds/1",
      cidrBlock: "10.10.0.0/16",
    });
    expect(Object.values(at)).not.toContain(null);
    expect("description" in at).toBe(false);
  });
});

describe("destroyNetwork", () => {
  it("waits (DeletionBlocked, retried) while the service refuses for dependents it knows of", async () => {
    const { ApiError } = await import("../../api/index.ts");
    const { DeletionBlockedError } = await import("../../runtime/sdk/index.ts");
    const refusal = new ApiError({
      kind: "conflict",
      code: "SVC_CONFLICT" as never,
      method: "DELETE",
      href: "/api/networks/1",
      status: 422,
      serviceMessage: "Network 1 still has routes 4: remove them first",
    });
    const client = { networks: { destroy: async () => Promise.reject(refusal) } } as never;
    const err = await destroyNetwork(client, "/api/networks/1").catch((e) => e);
    expect(err).toBeInstanceOf(DeletionBlockedError);
    expect(err.message).toMatch(/refuses to delete \/api\/networks\/1 yet: Network 1 still has routes 4/);
    const other = new ApiError({
      kind: "retryable",
      code: "SVC_SERVER" as never,
      method: "DELETE",
      href: "/api/networks/1",
      status: 500,
    });
    const failing = { networks: { destroy: async () => Promise.reject(other) } } as never;
    await expect(destroyNetwork(failing, "/api/networks/1")).rejects.toBe(other);
  });
});
