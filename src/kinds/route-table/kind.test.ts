import pino from "pino";
import { describe, expect, it } from "vitest";
import type { DesiredContext } from "../../runtime/sdk/index.ts";
import { NameLookup } from "../../runtime/sdk/index.ts";
import { CloudDirectory } from "../network/cloud.ts";
import { admitter } from "../shared/admission.testing.ts";
import { createRouteTableKind, routeContents } from "./kind.ts";
import { type RouteTableClient, routeTableSpecSchema } from "./schema.ts";

const route = (table: number, id: number, over: Record<string, unknown> = {}) => ({
  destination_cidr_block: "0.0.0.0/0",
  next_hop_type: "network_gateway",
  links: [
    { rel: "self", href: `/api/route_tables/${table}/routes/${id}` },
    { rel: "route_table", href: `/api/route_tables/${table}` },
    { rel: "next_hop", href: "/api/network_gateways/1" },
  ],
  ...over,
});

const rep = (id: number, name: string, routes: unknown[] | undefined, network = "/api/networks/1") => ({
  name,
  description: null,
  resource_uid: `rtb-${id}`,
  ...(routes ? { routes } : {}),
  links: [
    { rel: "self", href: `/api/route_tables/${id}` },
    { rel: "cloud", href: "/api/clouds/1" },
    { rel: "network", href: network },
    { rel: "routes", href: `/api/route_tables/${id}/routes` },
  ],
});

function fake(items: ReturnType<typeof rep>[], caps: Record<string, string> = {}) {
  const calls: string[] = [];
  const client = {
    routeTables: {
      show: async (href: string, options?: { view?: string }) => {
        calls.push(`show ${href} ${options?.view}`);
        return items.find((i) => i.links[0]!.href === href);
      },
      index: async (options?: { filter?: Record<string, string>; view?: string }) => {
        calls.push(`index ${options?.view} ${JSON.stringify(options?.filter ?? {})}`);
        return items;
      },
      create: async (params: object) => {
        calls.push(`create ${JSON.stringify(params)}`);
        return "/api/route_tables/9";
      },
      update: async (href: string, params: object) =>
        void calls.push(`update ${href} ${JSON.stringify(params)}`),
      destroy: async () => {},
    },
    networks: {
      show: async (href: string) => {
        calls.push(`show ${href}`);
        return href === "/api/networks/1"
          ? {
              links: [
                { rel: "self", href },
                { rel: "cloud", href: "/api/clouds/1" },
                { rel: "default_route_table", href: "/api/route_tables/1" },
              ],
            }
          : undefined;
      },
    },
    clouds: {
      show: async () => ({
        name: "c",
        capabilities: Object.entries(caps).map(([name, value]) => ({ name, value })),
        links: [{ rel: "self", href: "/api/clouds/1" }],
      }),
    },
  } as unknown as RouteTableClient;
  return { client, calls };
}

const ctx = (client: RouteTableClient, refs: DesiredContext<unknown>["refs"] = {}) =>
  ({
    meta: { name: "public", namespace: "ns" },
    client,
    refs,
    log: pino({ level: "silent" }),
    names: new NameLookup(),
    account: "ns/default",
  }) as DesiredContext<RouteTableClient>;

const main = {
  kind: "Network",
  name: "main",
  href: "/api/networks/1",
  atProvider: { cloudHref: "/api/clouds/1" },
};
const byRef = routeTableSpecSchema.parse({ networkRef: { name: "main" } });
const kind = createRouteTableKind({ clouds: new CloudDirectory() });

describe("RouteTable", () => {
  it("creates in its network's cloud, named after the resource; references the network; replaced on a network change", async () => {
    const { client, calls } = fake([]);
    const d = await kind.desired({ ...byRef, description: "web" }, ctx(client, { networkRef: main }));
    await kind.create(client, d);
    expect(calls).toEqual([
      'create {"network_href":"/api/networks/1","cloud_href":"/api/clouds/1","name":"public","description":"web"}',
    ]);
    expect(kind.references(byRef)).toEqual([{ field: "networkRef", kind: "Network", name: "main" }]);
    expect(kind.immutable).toEqual(["networkRef", "networkHref"]);
    expect(kind.replace).toBe("createBeforeDelete");
    expect(kind.index?.scope(byRef, {})).toBe("");
  });

  it("a network named by href: its cloud from the network's link, read once per account", async () => {
    const { client, calls } = fake([]);
    const spec = routeTableSpecSchema.parse({ networkHref: "/api/networks/1" });
    const k = createRouteTableKind();
    expect(await k.desired(spec, ctx(client))).toMatchObject({ cloudHref: "/api/clouds/1" });
    await k.desired(spec, ctx(client));
    expect(calls.filter((c) => c.startsWith("show /api/networks"))).toEqual(["show /api/networks/1"]);
    const gone = routeTableSpecSchema.parse({ networkHref: "/api/networks/7" });
    await expect(k.desired(gone, ctx(client))).rejects.toThrow(
      "spec.networkHref: /api/networks/7 does not exist in the service",
    );
  });

  it("stops before any create on a cloud without route tables", async () => {
    const { client } = fake([], { supports_route_tables: "false" });
    await expect(createRouteTableKind().desired(byRef, ctx(client, { networkRef: main }))).rejects.toThrow(
      /spec\.networkRef: cloud \/api\/clouds\/1 does not support route tables/,
    );
  });

  it("updates name and description in one call; a table of another network is a replacement, reported under the field used", async () => {
    const { client, calls } = fake([rep(1, "old", [])]);
    const d = await kind.desired({ ...byRef, description: "d" }, ctx(client, { networkRef: main }));
    const o = (await kind.observe(client, "/api/route_tables/1", d))!;
    const diff = kind.diff(d, o);
    expect(diff.map((x) => x.field)).toEqual(["name", "description"]);
    await kind.update(client, o.href, d, o, diff);
    expect(calls).toContain('update /api/route_tables/1 {"name":"public","description":"d"}');
    const moved = { ...main, href: "/api/networks/2" };
    const d2 = await kind.desired(byRef, ctx(client, { networkRef: moved }));
    expect(kind.diff(d2, o).map((x) => x.field)).toEqual(["networkRef", "name"]);
  });

  it("shows the routes the extended view embeds (one call), and names each for the report of unmanaged ones", async () => {
    const routes = [
      route(1, 4, {
        next_hop_type: "ip_string",
        next_hop_ip: "10.0.0.9",
        links: [{ rel: "self", href: "/api/route_tables/1/routes/4" }],
      }),
      route(1, 3),
    ];
    const { client, calls } = fake([rep(1, "public", routes)]);
    const o = (await kind.observe(client, "/api/route_tables/1", undefined as never))!;
    expect(calls).toEqual(["show /api/route_tables/1 extended"]);
    expect(kind.atProvider(o)).toEqual({
      name: "public",
      networkHref: "/api/networks/1",
      cloudHref: "/api/clouds/1",
      resourceUid: "rtb-1",
      routeCount: 2,
      routes: [
        {
          href: "/api/route_tables/1/routes/3",
          destinationCidrBlock: "0.0.0.0/0",
          nextHopType: "network_gateway",
          nextHop: "/api/network_gateways/1",
        },
        {
          href: "/api/route_tables/1/routes/4",
          destinationCidrBlock: "0.0.0.0/0",
          nextHopType: "ip_string",
          nextHop: "10.0.0.9",
        },
      ],
    });
    expect(kind.contents?.(o).map((c) => c.label)).toEqual([
      "route 0.0.0.0/0 -> network_gateway /api/network_gateways/1",
      "route 0.0.0.0/0 -> ip_string 10.0.0.9",
    ]);
    expect(routeContents({ href: "/x" })).toEqual([]);
  });

  it("drift reads every table with its routes in one index call", async () => {
    const { client, calls } = fake([rep(1, "a", []), rep(2, "b", [route(2, 1)])]);
    const listed = await kind.index!.list(client, "");
    expect(listed.map((o) => o.routeCount)).toEqual([0, 1]);
    expect(calls).toEqual(["index extended {}"]);
  });

  it("a lost create is found by network and exact name, never the network's other tables", async () => {
    const { client, calls } = fake([
      rep(1, "default", []),
      rep(2, "public", []),
      rep(3, "public", [], "/api/networks/2"),
    ]);
    const d = await kind.desired(byRef, ctx(client, { networkRef: main }));
    expect((await kind.lookup(client, d)).map((o) => o.href)).toEqual(["/api/route_tables/2"]);
    expect(calls).toEqual(['index extended {"network_href":"/api/networks/1"}', "show /api/networks/1"]);
    // A RouteTable named `default` never takes the network's own default table for its own.
    const named = routeTableSpecSchema.parse({ networkRef: { name: "main" }, name: "default" });
    const dd = await kind.desired(named, ctx(client, { networkRef: main }));
    expect(await kind.lookup(client, dd)).toEqual([]);
  });

  it("admission: exactly one of networkRef and networkHref; the network may change (a replacement)", () => {
    const admit = admitter(kind);
    expect(admit({}).map((c) => c.field)).toContain("spec.networkRef");
    const both = admit({ networkRef: { name: "main" }, networkHref: "/api/networks/1" });
    expect(both.map((c) => c.message).join()).toMatch(/exactly one of networkRef, networkHref/);
    const old = { networkRef: { name: "main" } };
    expect(admit({ networkRef: { name: "other" }, name: "x", description: "" }, old)).toEqual([]);
  });
});
