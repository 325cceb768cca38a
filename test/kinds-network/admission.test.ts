import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../operator/harness.ts";
import { apply, type Manifest, patch, remove } from "./helpers.ts";

/** Every CEL rule of the four CRDs, over real HTTP against the devcluster (no operator needed). */
let stack: Stack;
const ns = "admission";

beforeAll(async () => {
  stack = await startStack();
  await stack.core.createNamespace({ body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await stack?.close();
});

async function rejection(
  call: () => Promise<unknown>,
): Promise<{ code: number; causes: { field: string; message: string }[] }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof k8s.ApiException) {
      const body = typeof error.body === "string" ? JSON.parse(error.body) : error.body;
      return { code: error.code, causes: body?.details?.causes ?? [] };
    }
    throw error;
  }
  return { code: 201, causes: [] };
}

const cloud = { cloudHref: "/api/clouds/1" };
const hop = { destinationCidrBlock: "0.0.0.0/0" };
const net = { networkRef: { name: "main" } };

const rejectedOnCreate: { m: Manifest; field: string; message: RegExp }[] = [
  {
    m: { kind: "Network", name: "n-nocloud", spec: { cidrBlock: "10.0.0.0/16" } },
    field: "spec.cloudHref",
    message: /exactly one of cloudHref, cloud/,
  },
  {
    m: {
      kind: "Network",
      name: "n-2dep",
      spec: { ...cloud, deploymentRef: { name: "a" }, deploymentHref: "/api/deployments/1" },
    },
    field: "spec.deploymentRef",
    message: /at most one/,
  },
  {
    m: {
      kind: "Subnet",
      name: "s-2net",
      spec: { ...net, networkHref: "/api/networks/1", cidrBlock: "10.0.1.0/24" },
    },
    field: "spec.networkRef",
    message: /exactly one of networkRef, networkHref/,
  },
  {
    m: { kind: "NetworkGateway", name: "g-2cloud", spec: { ...cloud, cloud: { name: "x" }, type: "vpn" } },
    field: "spec.cloudHref",
    message: /exactly one of cloudHref, cloud/,
  },
  {
    m: {
      kind: "NetworkGateway",
      name: "g-2net",
      spec: { ...cloud, type: "vpn", ...net, networkHref: "/api/networks/1" },
    },
    field: "spec.networkRef",
    message: /at most one/,
  },
  {
    m: {
      kind: "Route",
      name: "r-notable",
      spec: { ...hop, nextHopType: "ip_string", nextHopIp: "10.0.0.1" },
    },
    field: "spec.networkRef",
    message: /exactly one of networkRef, routeTableRef, routeTableHref/,
  },
  {
    m: { kind: "Route", name: "r-inst", spec: { ...net, ...hop, nextHopType: "instance" } },
    field: "spec.nextHopHref",
    message: /required when nextHopType is instance/,
  },
  {
    m: { kind: "Route", name: "r-gw0", spec: { ...net, ...hop, nextHopType: "network_gateway" } },
    field: "spec.nextHopGatewayRef",
    message: /exactly one of nextHopHref or nextHopGatewayRef/,
  },
  {
    m: {
      kind: "Route",
      name: "r-href-ip",
      spec: {
        ...net,
        ...hop,
        nextHopType: "ip_string",
        nextHopIp: "10.0.0.1",
        nextHopHref: "/api/network_gateways/1",
      },
    },
    field: "spec.nextHopHref",
    message: /allowed only when/,
  },
  {
    m: {
      kind: "Route",
      name: "r-gwref-inst",
      spec: {
        ...net,
        ...hop,
        nextHopType: "instance",
        nextHopHref: "/api/clouds/1/instances/1",
        nextHopGatewayRef: { name: "g" },
      },
    },
    field: "spec.nextHopGatewayRef",
    message: /allowed only when nextHopType is network_gateway/,
  },
  {
    m: { kind: "Route", name: "r-noip", spec: { ...net, ...hop, nextHopType: "ip_string" } },
    field: "spec.nextHopIp",
    message: /required when nextHopType is ip_string/,
  },
  {
    m: { kind: "Route", name: "r-nourl", spec: { ...net, ...hop, nextHopType: "url" } },
    field: "spec.nextHopUrl",
    message: /required when nextHopType is url/,
  },
  // Addresses: kube-apiserver 1.32's words for these CRD rules, never a regular expression.
  {
    m: { kind: "Subnet", name: "s-cidr", spec: { ...net, cidrBlock: "10.0.0.300/16" } },
    field: "spec.cidrBlock",
    message: /^Invalid value: "string": must be an IPv4 CIDR block such as 10\.0\.0\.0\/16$/,
  },
  {
    m: { kind: "Network", name: "n-cidr", spec: { ...cloud, cidrBlock: "10.0.0.0/08" } },
    field: "spec.cidrBlock",
    message: /^Invalid value: "string": must be an IPv4 CIDR block such as 10\.0\.0\.0\/16$/,
  },
  {
    m: {
      kind: "Route",
      name: "r-cidr",
      spec: {
        ...net,
        destinationCidrBlock: "2001:db8::/32",
        nextHopType: "ip_string",
        nextHopIp: "10.0.0.1",
      },
    },
    field: "spec.destinationCidrBlock",
    message: /^Invalid value: "string": must be an IPv4 CIDR block such as 10\.0\.0\.0\/16$/,
  },
  {
    m: {
      kind: "Route",
      name: "r-ip",
      spec: { ...net, ...hop, nextHopType: "ip_string", nextHopIp: "10.0.0.256" },
    },
    field: "spec.nextHopIp",
    message: /^Invalid value: "string": must be an IPv4 address such as 10\.0\.0\.1$/,
  },
];

const accepted: Manifest[] = [
  {
    kind: "Network",
    name: "ok-net",
    spec: { cloud: { name: "EC2 us-east-1" }, cidrBlock: "10.10.0.0/16", deploymentRef: { name: "web" } },
  },
  {
    kind: "Subnet",
    name: "ok-sub",
    spec: {
      ...net,
      cidrBlock: "10.10.1.0/24",
      datacenterHref: "/api/clouds/1/datacenters/1",
      routeTableHref: "",
    },
  },
  { kind: "NetworkGateway", name: "ok-gw", spec: { ...cloud, type: "internet", ...net } },
  {
    kind: "Route",
    name: "ok-gw-route",
    spec: { ...net, ...hop, nextHopType: "network_gateway", nextHopGatewayRef: { name: "ok-gw" } },
  },
  // Host bits are taken as written, as the service takes them (docs/crds.md says so).
  { kind: "Subnet", name: "ok-host-bits", spec: { ...net, cidrBlock: "10.10.3.5/24" } },
  {
    kind: "Route",
    name: "ok-url-route",
    spec: { routeTableHref: "/api/route_tables/1", ...hop, nextHopType: "url", nextHopUrl: "https://x" },
  },
];

/** Transition rules: the change is refused on update with the field named. */
const immutableOnUpdate: { kind: string; name: string; change: Record<string, unknown>; field: string }[] = [
  { kind: "Network", name: "ok-net", change: { cidrBlock: "10.20.0.0/16" }, field: "spec.cidrBlock" },
  { kind: "Network", name: "ok-net", change: { cloud: { name: "other" } }, field: "spec.cloud" },
  {
    kind: "Network",
    name: "ok-net",
    change: { instanceTenancy: "dedicated" },
    field: "spec.instanceTenancy",
  },
  { kind: "Subnet", name: "ok-sub", change: { networkRef: { name: "other" } }, field: "spec.networkRef" },
  {
    kind: "Subnet",
    name: "ok-sub",
    change: { datacenterHref: "/api/clouds/1/datacenters/2" },
    field: "spec.datacenterHref",
  },
  { kind: "NetworkGateway", name: "ok-gw", change: { type: "vpn" }, field: "spec.type" },
  { kind: "NetworkGateway", name: "ok-gw", change: { cloudHref: "/api/clouds/2" }, field: "spec.cloudHref" },
];

describe("CEL rules at admission (devcluster over HTTP)", () => {
  for (const c of rejectedOnCreate) {
    it(`refuses ${c.m.kind} ${c.m.name}, naming ${c.field}`, async () => {
      const r = await rejection(() => apply(stack, ns, c.m));
      expect(r.code).toBe(422);
      expect(r.causes.find((x) => x.field === c.field)?.message, JSON.stringify(r.causes)).toMatch(c.message);
    });
  }

  it("accepts valid resources of each kind", async () => {
    for (const m of accepted) expect((await rejection(() => apply(stack, ns, m))).code, m.name).toBe(201);
  });

  for (const c of immutableOnUpdate) {
    it(`refuses a change of ${c.field} on ${c.kind}`, async () => {
      const r = await rejection(() => patch(stack, ns, c.kind, c.name, { spec: c.change }));
      expect(r.code).toBe(422);
      expect(r.causes.find((x) => x.field === c.field)?.message, JSON.stringify(r.causes)).toMatch(
        /is immutable/,
      );
    });
  }

  it("accepts updates of mutable fields, including moving a route to another table", async () => {
    expect(
      (
        await rejection(() =>
          patch(stack, ns, "Network", "ok-net", { spec: { description: "x", name: "n2" } }),
        )
      ).code,
    ).toBe(201);
    expect(
      (await rejection(() => patch(stack, ns, "Subnet", "ok-sub", { spec: { cidrBlock: "10.10.2.0/24" } })))
        .code,
    ).toBe(201);
    expect(
      (await rejection(() => patch(stack, ns, "NetworkGateway", "ok-gw", { spec: { networkRef: null } })))
        .code,
    ).toBe(201);
    expect(
      (
        await rejection(() =>
          patch(stack, ns, "Route", "ok-gw-route", {
            spec: { networkRef: null, routeTableHref: "/api/route_tables/2" },
          }),
        )
      ).code,
    ).toBe(201);
    for (const m of accepted) await remove(stack, ns, m.kind, m.name);
  });
});
