import { describe, expect, it } from "vitest";
import type { ResolvedReference } from "../../runtime/sdk/index.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import type { TableObserved } from "../shared/table-kind.ts";
import { CloudDirectory } from "./cloud.ts";
import { createNetworkKind } from "./kind.ts";
import { type NetworkClient, networkSpecSchema } from "./schema.ts";

const N = "/api/networks/1";
const rep = {
  name: "main",
  description: null,
  cidr_block: "10.10.0.0/16",
  instance_tenancy: "default",
  is_default: false,
  resource_uid: "vpc-1",
  links: [
    { rel: "self", href: N },
    { rel: "cloud", href: "/api/clouds/1" },
    { rel: "default_route_table", href: "/api/route_tables/1" },
  ],
};

/** A fake service: the network, its gateways and clouds of every capability, recording the network calls. */
function fake(destroy?: () => Promise<void>) {
  const calls: string[] = [];
  const networks = fakeResource([rep], calls, "/api/networks/9");
  const client = {
    networks: destroy ? { ...networks, destroy } : networks,
    networkGateways: { index: async () => [] },
    clouds: { show: async () => ({ capabilities: [], links: [] }), index: async () => [] },
  } as unknown as NetworkClient;
  return { client, calls };
}

const networkKind = createNetworkKind(new CloudDirectory());
const { client, calls } = fake();
const observed: TableObserved = (await networkKind.observe(client, N, { fields: {} }))!;

/** The desired state of network main in cloud 1 with the network's CIDR, the spec given over it. */
function desired(over: Record<string, unknown> = {}, refs: Record<string, ResolvedReference> = {}) {
  const spec = networkSpecSchema.parse({ cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16", ...over });
  return networkKind.desired(spec, desiredContext(client, "main", refs));
}

describe("network desired state", () => {
  it("defaults the name, takes the deployment from the ref or the href", async () => {
    const spec = networkSpecSchema.parse({ cloud: { name: "EC2" }, deploymentRef: { name: "web" } });
    const byName = {
      ...client,
      clouds: {
        ...client.clouds,
        index: async () => [{ name: "EC2", links: [{ rel: "self", href: "/api/clouds/1" }] }],
      },
    } as unknown as NetworkClient;
    const web = { kind: "Deployment", name: "web", href: "/api/deployments/9", atProvider: {} };
    const d = await networkKind.desired(spec, desiredContext(byName, "meta", { deploymentRef: web }));
    expect(d).toMatchObject({
      name: "meta",
      cloudHref: "/api/clouds/1",
      deploymentHref: "/api/deployments/9",
      fields: { cloudHref: "cloud", deploymentHref: "deploymentRef" },
    });
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

  it("is an after-create association: the table names the network, so no create-time dependency", async () => {
    expect(networkKind.references(spec)).toEqual([
      { field: "defaultRouteTableRef", kind: "RouteTable", name: "private", afterCreate: true },
    ]);
    // Until the table is usable the runtime gives no reference: the default route table is not managed yet.
    expect(networkKind.diff(await desired({ defaultRouteTableRef: { name: "private" } }), observed)).toEqual(
      [],
    );
  });

  it("once usable: set by the update, a change reported under defaultRouteTableRef", async () => {
    const d = await desired({ defaultRouteTableRef: { name: "private" } }, { defaultRouteTableRef: table });
    const diff = networkKind.diff(d, observed);
    expect(diff).toEqual([
      { field: "defaultRouteTableRef", desired: "/api/route_tables/2", observed: "/api/route_tables/1" },
    ]);
    calls.length = 0;
    await networkKind.create(client, d);
    expect(calls[0]).not.toContain("route_table_href");
    calls.length = 0;
    await networkKind.update(client, N, d, observed, diff);
    expect(calls).toEqual([`update ${N} {"route_table_href":"/api/route_tables/2"}`]);
  });

  it("a RouteTable of another network stops before the update, naming the field", async () => {
    const d = await desired(
      { defaultRouteTableRef: { name: "private" } },
      { defaultRouteTableRef: { ...table, atProvider: { networkHref: "/api/networks/7" } } },
    );
    const updating = { networks: { update: async () => expect.fail("no update") } } as never;
    await expect(networkKind.update(updating, N, d, observed, networkKind.diff(d, observed))).rejects.toThrow(
      "spec.defaultRouteTableRef: route table /api/route_tables/2 is in network /api/networks/7, not in this network /api/networks/1",
    );
  });
});

describe("network diff", () => {
  const cases: { reason: string; spec?: Record<string, unknown>; cloudByName?: boolean; want: string[] }[] = [
    { reason: "in sync", want: [] },
    { reason: "renamed", spec: { name: "x" }, want: ["name"] },
    { reason: "description set (null reads as empty)", spec: { description: "d" }, want: ["description"] },
    { reason: "empty description matches null", spec: { description: "" }, want: [] },
    { reason: "CIDR changed (create-only)", spec: { cidrBlock: "10.20.0.0/16" }, want: ["cidrBlock"] },
    { reason: "cloud changed, by href", spec: { cloudHref: "/api/clouds/3" }, want: ["cloudHref"] },
    { reason: "cloud changed, by name", cloudByName: true, want: ["cloud"] },
    { reason: "tenancy", spec: { instanceTenancy: "dedicated" }, want: ["instanceTenancy"] },
    {
      reason: "deployment attached",
      spec: { deploymentHref: "/api/deployments/1" },
      want: ["deploymentHref"],
    },
    {
      reason: "default route table chosen",
      spec: { routeTableHref: "/api/route_tables/2" },
      want: ["routeTableHref"],
    },
    { reason: "default route table unchanged", spec: { routeTableHref: "/api/route_tables/1" }, want: [] },
  ];
  for (const c of cases) {
    it(c.reason, async () => {
      const d = c.cloudByName
        ? { ...(await desired()), cloudHref: "/api/clouds/3", fields: { cloudHref: "cloud" } }
        : await desired(c.spec);
      expect(networkKind.diff(d, observed).map((x) => x.field)).toEqual(c.want);
    });
  }

  it("a Deployment named by reference: another deployment differs under deploymentRef, and the update moves it", async () => {
    const web = { kind: "Deployment", name: "web", href: "/api/deployments/2", atProvider: {} };
    const d = await desired({ deploymentRef: { name: "web" } }, { deploymentRef: web });
    const shown = { ...observed, deploymentHref: "/api/deployments/1" };
    const diff = networkKind.diff(d, shown);
    expect(diff).toEqual([
      { field: "deploymentRef", desired: "/api/deployments/2", observed: "/api/deployments/1" },
    ]);
    calls.length = 0;
    await networkKind.update(client, N, d, shown, diff);
    expect(calls).toEqual([`update ${N} {"deployment_href":"/api/deployments/2"}`]);
  });

  it("lists the create-only fields as immutable (Stalled when a change gets through)", () => {
    expect(networkKind.immutable).toEqual(["cloudHref", "cloud", "cidrBlock", "instanceTenancy"]);
    expect(networkKind.replace).toBeUndefined();
  });
});

describe("network parameters and atProvider", () => {
  it("creates with the create fields only, updates only what differs", async () => {
    const d = await desired({
      description: "d",
      instanceTenancy: "dedicated",
      deploymentHref: "/api/deployments/1",
      routeTableHref: "/api/route_tables/2",
    });
    calls.length = 0;
    await networkKind.create(client, d);
    expect(calls).toEqual([
      'create {"cloud_href":"/api/clouds/1","cidr_block":"10.10.0.0/16","instance_tenancy":"dedicated","name":"main","description":"d","deployment_href":"/api/deployments/1"}',
    ]);
    const renamed = await desired({ name: "x", routeTableHref: "/api/route_tables/2" });
    calls.length = 0;
    await networkKind.update(client, N, renamed, observed, networkKind.diff(renamed, observed));
    expect(calls).toEqual([`update ${N} {"name":"x","route_table_href":"/api/route_tables/2"}`]);
  });

  it("atProvider has the default route table and the cloud, and no nulls (status storage drops them)", () => {
    const at = networkKind.atProvider(observed);
    expect(at).toMatchObject({
      defaultRouteTableHref: "/api/route_tables/1",
      cloudHref: "/api/clouds/1",
      cidrBlock: "10.10.0.0/16",
    });
    expect(Object.values(at)).not.toContain(null);
    expect("description" in at).toBe(false);
  });
});

describe("network deletion", () => {
  it("waits (DeletionBlocked, retried) while the service refuses for dependents it knows of", async () => {
    const { ApiError } = await import("../../api/index.ts");
    const { DeletionBlockedError } = await import("../../runtime/sdk/index.ts");
    const refusal = new ApiError({
      kind: "conflict",
      code: "SVC_CONFLICT" as never,
      method: "DELETE",
      href: N,
      status: 422,
      serviceMessage: "Network 1 still has routes 4: remove them first",
    });
    const refusing = fake(async () => Promise.reject(refusal)).client;
    const err = await networkKind.delete(refusing, N, observed).catch((e) => e);
    expect(err).toBeInstanceOf(DeletionBlockedError);
    expect(err.message).toMatch(/refuses to delete \/api\/networks\/1 yet: Network 1 still has routes 4/);
    const other = new ApiError({
      kind: "retryable",
      code: "SVC_SERVER" as never,
      method: "DELETE",
      href: N,
      status: 500,
    });
    const failing = fake(async () => Promise.reject(other)).client;
    await expect(networkKind.delete(failing, N, observed)).rejects.toBe(other);
  });
});
