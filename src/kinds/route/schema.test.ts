import { describe, expect, it } from "vitest";
import { admitter } from "../shared/admission.testing.ts";
import { routeKind } from "./kind.ts";
import { brokenNextHopRules } from "./rules.ts";
import { routeSpecSchema } from "./schema.ts";

const admitRoute = admitter(routeKind);
const net = { networkRef: { name: "main" }, destinationCidrBlock: "0.0.0.0/0" };

/** Every case runs through CEL admission and through the reconciler's own check. */
const accepted: { reason: string; spec: Record<string, unknown> }[] = [
  {
    reason: "gateway by ref",
    spec: { ...net, nextHopType: "network_gateway", nextHopGatewayRef: { name: "igw" } },
  },
  {
    reason: "gateway by href",
    spec: { ...net, nextHopType: "network_gateway", nextHopHref: "/api/network_gateways/1" },
  },
  { reason: "instance", spec: { ...net, nextHopType: "instance", nextHopHref: "/api/clouds/1/instances/1" } },
  {
    reason: "network interface",
    spec: { ...net, nextHopType: "network_interface", nextHopHref: "/api/clouds/1/network_interfaces/eni-1" },
  },
  { reason: "ip", spec: { ...net, nextHopType: "ip_string", nextHopIp: "10.0.0.5" } },
  { reason: "url", spec: { ...net, nextHopType: "url", nextHopUrl: "https://hop.example.com/x" } },
  {
    reason: "route table by href with attributes",
    spec: {
      routeTableHref: "/api/route_tables/1",
      destinationCidrBlock: "10.1.0.0/16",
      nextHopType: "ip_string",
      nextHopIp: "10.0.0.5",
      cloudSpecificAttributes: { instanceTags: ["web"], priority: 100 },
    },
  },
];

const rejected: { reason: string; spec: Record<string, unknown>; field: string; message: RegExp }[] = [
  {
    reason: "instance without href",
    spec: { ...net, nextHopType: "instance" },
    field: "nextHopHref",
    message: /required when nextHopType is instance/,
  },
  {
    reason: "network interface with an ip",
    spec: { ...net, nextHopType: "network_interface", nextHopIp: "10.0.0.1" },
    field: "nextHopHref",
    message: /required when nextHopType is instance or network_interface/,
  },
  {
    reason: "gateway with neither",
    spec: { ...net, nextHopType: "network_gateway" },
    field: "nextHopGatewayRef",
    message: /exactly one of nextHopHref or nextHopGatewayRef/,
  },
  {
    reason: "gateway with both",
    spec: {
      ...net,
      nextHopType: "network_gateway",
      nextHopHref: "/api/network_gateways/1",
      nextHopGatewayRef: { name: "g" },
    },
    field: "nextHopGatewayRef",
    message: /exactly one of nextHopHref or nextHopGatewayRef/,
  },
  {
    reason: "href on an ip route",
    spec: { ...net, nextHopType: "ip_string", nextHopIp: "10.0.0.5", nextHopHref: "/api/network_gateways/1" },
    field: "nextHopHref",
    message: /allowed only when nextHopType is instance, network_interface or network_gateway/,
  },
  {
    reason: "gateway ref on an instance route",
    spec: {
      ...net,
      nextHopType: "instance",
      nextHopHref: "/api/clouds/1/instances/1",
      nextHopGatewayRef: { name: "g" },
    },
    field: "nextHopGatewayRef",
    message: /allowed only when nextHopType is network_gateway/,
  },
  {
    reason: "ip route without ip",
    spec: { ...net, nextHopType: "ip_string" },
    field: "nextHopIp",
    message: /required when nextHopType is ip_string and not allowed otherwise/,
  },
  {
    reason: "ip on a url route",
    spec: { ...net, nextHopType: "url", nextHopUrl: "https://x", nextHopIp: "10.0.0.1" },
    field: "nextHopIp",
    message: /not allowed otherwise/,
  },
  {
    reason: "url route without url",
    spec: { ...net, nextHopType: "url" },
    field: "nextHopUrl",
    message: /required when nextHopType is url/,
  },
  {
    reason: "url on a gateway route",
    spec: {
      ...net,
      nextHopType: "network_gateway",
      nextHopGatewayRef: { name: "g" },
      nextHopUrl: "https://x",
    },
    field: "nextHopUrl",
    message: /not allowed otherwise/,
  },
];

describe("Route CRD admission (CEL) and the reconciler's check", () => {
  for (const c of accepted) {
    it(`accepts ${c.reason}`, () => {
      expect(admitRoute(c.spec)).toEqual([]);
      expect(brokenNextHopRules(routeSpecSchema.parse(c.spec))).toEqual([]);
    });
  }
  for (const c of rejected) {
    it(`rejects ${c.reason}, naming spec.${c.field}`, () => {
      const causes = admitRoute(c.spec);
      const cause = causes.find((x) => x.field === `spec.${c.field}`);
      expect(cause, JSON.stringify(causes)).toBeDefined();
      expect(cause?.message).toMatch(c.message);
      const broken = brokenNextHopRules(routeSpecSchema.parse(c.spec));
      expect(broken.map((r) => r.field)).toContain(c.field);
    });
  }

  it("needs exactly one of networkRef, routeTableRef and routeTableHref", () => {
    const hop = { destinationCidrBlock: "0.0.0.0/0", nextHopType: "ip_string", nextHopIp: "10.0.0.1" };
    const table = { routeTableHref: "/api/route_tables/1" };
    for (const spec of [
      hop,
      { ...hop, ...table, networkRef: { name: "n" } },
      { ...hop, ...table, routeTableRef: { name: "public" } },
      { ...hop, networkRef: { name: "n" }, routeTableRef: { name: "public" } },
    ]) {
      const causes = admitRoute(spec);
      expect(causes.find((c) => c.field === "spec.networkRef")?.message).toMatch(
        /exactly one of networkRef, routeTableRef, routeTableHref/,
      );
    }
    expect(admitRoute({ ...hop, routeTableRef: { name: "public" } })).toEqual([]);
  });

  it("rejects a malformed destination, next-hop ip and type, naming each", () => {
    const causes = admitRoute({
      ...net,
      destinationCidrBlock: "0.0.0.0",
      nextHopType: "ip_string",
      nextHopIp: "10.0.0",
    });
    expect(causes.map((c) => c.field)).toEqual(
      expect.arrayContaining(["spec.destinationCidrBlock", "spec.nextHopIp"]),
    );
    expect(admitRoute({ ...net, nextHopType: "vpn" }).map((c) => c.field)).toContain("spec.nextHopType");
  });

  it("allows changing the next hop and the route table on update (they replace the route)", () => {
    const old = { ...net, nextHopType: "url", nextHopUrl: "https://a" };
    expect(admitRoute({ ...old, nextHopUrl: "https://b" }, old)).toEqual([]);
    const { networkRef: _, ...byTable } = old;
    expect(admitRoute({ ...byTable, routeTableHref: "/api/route_tables/9" }, old)).toEqual([]);
  });
});
