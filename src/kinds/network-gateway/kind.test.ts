import { describe, expect, it } from "vitest";
import type { ResolvedReference } from "../../runtime/sdk/index.ts";
import { DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import { CloudDirectory } from "../network/cloud.ts";
import { desiredContext, fakeResource } from "../shared/context.testing.ts";
import type { TableDesired } from "../shared/table-kind.ts";
import { createNetworkGatewayKind } from "./kind.ts";
import { type NetworkGatewayClient, networkGatewaySpecSchema } from "./schema.ts";

const G = "/api/network_gateways/3";
const rep = (over: Record<string, unknown> = {}, network: string | null = "/api/networks/1") => ({
  name: "igw",
  description: null,
  type: "internet",
  state: "available",
  resource_uid: "igw-3",
  links: [
    { rel: "self", href: G },
    { rel: "cloud", href: "/api/clouds/1" },
    ...(network ? [{ rel: "network", href: network }] : []),
  ],
  ...over,
});

/** A fake service: the gateway and a cloud of every capability, recording the gateway calls. */
function fake(items = [rep()]) {
  const calls: string[] = [];
  const client = {
    networkGateways: fakeResource(items, calls, "/api/network_gateways/9"),
    clouds: { show: async () => ({ capabilities: [], links: [] }), index: async () => [] },
  } as unknown as NetworkGatewayClient;
  return { client, calls };
}

const kind = createNetworkGatewayKind(new CloudDirectory());
const main: ResolvedReference = { kind: "Network", name: "main", href: "/api/networks/1", atProvider: {} };
const spec = (over: Record<string, unknown> = {}) =>
  networkGatewaySpecSchema.parse({ cloudHref: "/api/clouds/1", type: "internet", ...over });

async function desired(
  client: NetworkGatewayClient,
  over: Record<string, unknown> = {},
  refs: Record<string, ResolvedReference> = { networkRef: main },
) {
  return kind.desired(spec({ networkRef: { name: "main" }, ...over }), desiredContext(client, "igw", refs));
}

describe("gateway desired state", () => {
  it("no network reference means detached", async () => {
    const { client } = fake();
    const detached = await kind.desired(spec(), desiredContext(client, "igw"));
    expect(detached.networkHref).toBeUndefined();
    const o = (await kind.observe(client, G, detached))!;
    expect(kind.diff(detached, o)).toEqual([
      { field: "networkHref", desired: null, observed: "/api/networks/1" },
    ]);
    const byRef = await desired(client);
    expect(byRef.networkHref).toBe("/api/networks/1");
    expect(kind.references(spec({ networkRef: { name: "main" } }))).toEqual([
      { field: "networkRef", kind: "Network", name: "main" },
    ]);
  });
});

describe("gateway diff", () => {
  const cases: {
    reason: string;
    desired?: Record<string, unknown>;
    refs?: Record<string, ResolvedReference>;
    network?: string | null;
    want: string[];
  }[] = [
    { reason: "in sync", want: [] },
    { reason: "renamed", desired: { name: "x" }, want: ["name"] },
    { reason: "type (immutable)", desired: { type: "vpn" }, want: ["type"] },
    { reason: "attach", network: null, want: ["networkRef"] },
    {
      reason: "detach (reference removed)",
      desired: { networkRef: undefined },
      refs: {},
      want: ["networkHref"],
    },
    {
      reason: "move to another network",
      refs: { networkRef: { ...main, href: "/api/networks/2" } },
      want: ["networkRef"],
    },
  ];
  for (const c of cases) {
    it(c.reason, async () => {
      const { client } = fake([rep({}, c.network === undefined ? "/api/networks/1" : c.network)]);
      const d = await desired(client, c.desired, c.refs ?? { networkRef: main });
      const o = (await kind.observe(client, G, d))!;
      expect(kind.diff(d, o).map((x) => x.field)).toEqual(c.want);
    });
  }

  it("attaches and detaches through update; type is immutable", async () => {
    const { client, calls } = fake();
    const detach = await kind.desired(spec(), desiredContext(client, "igw"));
    const o = (await kind.observe(client, G, detach))!;
    await kind.update(client, G, detach, o, kind.diff(detach, o));
    await kind.create(client, await desired(client, { description: "d" }));
    expect(calls).toEqual([
      `update ${G} {"network_href":""}`,
      'create {"cloud_href":"/api/clouds/1","type":"internet","name":"igw","description":"d"}',
    ]);
    expect(kind.immutable).toContain("type");
  });

  it("detaches before destroying", async () => {
    const { client, calls } = fake();
    const o = (await kind.observe(client, G, {} as TableDesired))!;
    await kind.delete(client, G, o);
    expect(calls).toEqual([`update ${G} {"network_href":""}`, `destroy ${G}`]);
    calls.length = 0;
    await kind.delete(client, G, { ...o, networkHref: undefined });
    expect(calls).toEqual([`destroy ${G}`]);
  });
});

describe("gateway cloud", () => {
  it("an unknown cloud href waits (DependencyNotReady) naming cloudHref, before any write", async () => {
    const { ApiError } = await import("../../api/index.ts");
    const missing = new ApiError({
      kind: "notFound",
      code: "SVC_NOT_FOUND" as never,
      method: "GET",
      href: "/api/clouds/9",
      status: 422,
    });
    const client = {
      clouds: { show: async () => Promise.reject(missing), index: async () => [] },
    } as unknown as NetworkGatewayClient;
    const gw = networkGatewaySpecSchema.parse({ cloudHref: "/api/clouds/9", type: "vpn" });
    const error = await Promise.resolve(kind.desired(gw, desiredContext(client, "gw"))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as Error).message).toBe("spec.cloudHref: /api/clouds/9 does not exist in the service");
  });
});
