import { describe, expect, it, vi } from "vitest";
import { DependencyNotReadyError } from "../../runtime/sdk/index.ts";
import type { NetClient } from "../network/api.ts";
import {
  desiredGateway,
  diffGateway,
  gatewayCreateParams,
  gatewayUpdateParams,
  type NetworkGatewayDesired,
  type NetworkGatewayObserved,
  networkGatewayKind,
} from "./kind.ts";
import { networkGatewaySpecSchema } from "./schema.ts";

const observed: NetworkGatewayObserved = {
  href: "/api/network_gateways/3",
  name: "igw",
  description: null,
  type: "internet",
  state: "available",
  resourceUid: "igw-3",
  cloudHref: "/api/clouds/1",
  networkHref: "/api/networks/1",
};

function desired(over: Partial<NetworkGatewayDesired> = {}): NetworkGatewayDesired {
  return {
    cloudHref: "/api/clouds/1",
    cloudField: "cloudHref",
    name: "igw",
    type: "internet",
    networkHref: "/api/networks/1",
    networkField: "networkRef",
    ...over,
  };
}

describe("gateway desired state", () => {
  it("no network reference means detached", () => {
    const spec = networkGatewaySpecSchema.parse({ cloudHref: "/api/clouds/1", type: "vpn" });
    expect(desiredGateway(spec, "gw", "/api/clouds/1").networkHref).toBeNull();
    const byRef = networkGatewaySpecSchema.parse({
      cloudHref: "/api/clouds/1",
      type: "vpn",
      networkRef: { name: "main" },
    });
    expect(desiredGateway(byRef, "gw", "/api/clouds/1", "/api/networks/7").networkHref).toBe(
      "/api/networks/7",
    );
    expect(networkGatewayKind.references(byRef)).toEqual([
      { field: "networkRef", kind: "Network", name: "main" },
    ]);
  });
});

describe("diffGateway", () => {
  const cases: {
    reason: string;
    desired: NetworkGatewayDesired;
    observed?: Partial<NetworkGatewayObserved>;
    want: string[];
  }[] = [
    { reason: "in sync", desired: desired(), want: [] },
    { reason: "renamed", desired: desired({ name: "x" }), want: ["name"] },
    { reason: "type (immutable)", desired: desired({ type: "vpn" }), want: ["type"] },
    { reason: "attach", desired: desired(), observed: { networkHref: undefined }, want: ["networkRef"] },
    {
      reason: "detach (reference removed)",
      desired: desired({ networkHref: null, networkField: "networkHref" }),
      want: ["networkHref"],
    },
    {
      reason: "move to another network",
      desired: desired({ networkHref: "/api/networks/2" }),
      want: ["networkRef"],
    },
  ];
  for (const c of cases) {
    it(c.reason, () =>
      expect(diffGateway(c.desired, { ...observed, ...c.observed }).map((d) => d.field)).toEqual(c.want),
    );
  }

  it("attaches and detaches through update; type is immutable", () => {
    const detach = desired({ networkHref: null, networkField: "networkHref" });
    expect(gatewayUpdateParams(diffGateway(detach, observed), detach)).toEqual({ network_href: "" });
    expect(gatewayCreateParams(desired({ description: "d" }))).toEqual({
      cloud_href: "/api/clouds/1",
      name: "igw",
      type: "internet",
      description: "d",
    });
    expect(networkGatewayKind.immutable).toContain("type");
  });

  it("detaches before destroying", async () => {
    const calls: string[] = [];
    const client = {
      networkGateways: {
        update: vi.fn(
          async (href: string, p: unknown) => void calls.push(`update ${href} ${JSON.stringify(p)}`),
        ),
        destroy: vi.fn(async (href: string) => void calls.push(`destroy ${href}`)),
      },
    } as unknown as NetClient;
    await networkGatewayKind.delete(client, observed.href, observed);
    expect(calls).toEqual([
      'update /api/network_gateways/3 {"network_href":""}',
      "destroy /api/network_gateways/3",
    ]);
    calls.length = 0;
    await networkGatewayKind.delete(client, observed.href, { ...observed, networkHref: undefined });
    expect(calls).toEqual(["destroy /api/network_gateways/3"]);
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
    } as unknown as NetClient;
    const spec = networkGatewaySpecSchema.parse({ cloudHref: "/api/clouds/9", type: "vpn" });
    const ctx = { meta: { name: "gw", namespace: "n" }, client, refs: {}, log: undefined as never };
    const error = await Promise.resolve(networkGatewayKind.desired(spec, ctx)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyNotReadyError);
    expect((error as Error).message).toBe("spec.cloudHref: /api/clouds/9 does not exist in the service");
  });
});
