import { describe, expect, it } from "vitest";
import * as z from "zod";
import { managedKinds } from "../kinds/index.ts";
import type { AnyManagedKind, ManagedObject } from "../runtime/sdk/index.ts";
import { API_VERSION } from "../runtime/sdk/index.ts";
import { ReferenceGraph, type TraceNode } from "./graph.ts";
import { renderJson, renderTable } from "./render.ts";
import { parseTarget, resolveKind, TraceError } from "./target.ts";

/** Two kinds whose references come from their own declarations: a Net, and a Hop on a Net and a gateway Net. */
const spec = z.object({
  accountRef: z.object({ name: z.string() }),
  netRef: z.object({ name: z.string() }).optional(),
  gatewayRef: z.object({ name: z.string() }).optional(),
});
type Spec = z.infer<typeof spec>;
const kind = (name: string): AnyManagedKind =>
  ({
    kind: name,
    schema: spec,
    references: (s: Spec) => [
      ...(s.netRef ? [{ field: "netRef", kind: "Net", name: s.netRef.name }] : []),
      ...(s.gatewayRef ? [{ field: "gatewayRef", kind: "Net", name: s.gatewayRef.name }] : []),
    ],
  }) as unknown as AnyManagedKind;
const KINDS = [kind("Net"), kind("Hop")];

const obj = (
  name: string,
  spec: Record<string, unknown>,
  ready: "True" | "False" | undefined,
  extra: { reason?: string; message?: string; href?: string } = {},
): ManagedObject => ({
  metadata: { namespace: "ns", name },
  spec,
  status: {
    ...(extra.href ? { href: extra.href } : {}),
    conditions: ready
      ? [
          {
            type: "Ready",
            status: ready,
            reason: extra.reason ?? (ready === "True" ? "Available" : "Creating"),
            message: extra.message ?? "",
            lastTransitionTime: "2026-01-01T00:00:00Z",
          },
          { type: "Synced", status: "True", reason: "ReconcileSuccess", message: "", lastTransitionTime: "" },
        ]
      : [],
  },
});

const account = { name: "default" };
function graph() {
  return new ReferenceGraph(
    [
      { kind: "Account", object: obj("default", {}, "True", { reason: "Verified" }) },
      { kind: "Net", object: obj("vpc", { accountRef: account }, "True", { href: "/api/networks/1" }) },
      {
        kind: "Hop",
        object: obj(
          "web",
          { accountRef: account, netRef: { name: "vpc" }, gatewayRef: { name: "gw" } },
          "False",
          {
            reason: "DependencyNotReady",
            message: "gatewayRef: Net gw does not exist\nyet",
          },
        ),
      },
      { kind: "Hop", object: obj("leaf", { accountRef: account, netRef: { name: "vpc" } }, "False") },
    ],
    KINDS,
    new Map([["Net", "nets.cloud.svc.io"]]),
  );
}

const names = (n: TraceNode): unknown => [
  `${n.relation} ${n.field ?? ""} ${n.kind}/${n.name} ${n.ready}`,
  ...n.children.map(names),
];

/** Every row of a tree, depth first: what renderTable prints, in order. */
const rowsOf = (n: TraceNode): TraceNode[] => [n, ...n.children.flatMap(rowsOf)];

describe("trace: the reference tree", () => {
  it("what a resource references up to its Account, each from the kind's declarations, once; a missing one marked", () => {
    const tree = graph().trace("Hop", "ns", "web");
    // The Account is named by the Hop and by its Net: one row, under the Hop.
    expect(names(tree)).toEqual([
      "root  Hop/web False",
      ["references accountRef Account/default True"],
      ["references netRef Net/vpc True"],
      ["references gatewayRef Net/gw -"],
    ]);
    const gw = tree.children[2]!;
    expect(gw).toMatchObject({
      found: false,
      reason: "NotFound",
      message: 'nets.cloud.svc.io "gw" not found',
    });
  });

  it("what references it, down to the leaves", () => {
    expect(names(graph().trace("Net", "ns", "vpc"))).toEqual([
      "root  Net/vpc True",
      ["references accountRef Account/default True"],
      ["referencedBy netRef Hop/web False"],
      ["referencedBy netRef Hop/leaf False"],
    ]);
    // Every resource of the Account, once: the Hops under the Net they name as well.
    expect(names(graph().trace("Account", "ns", "default"))).toEqual([
      "root  Account/default True",
      [
        "referencedBy accountRef Net/vpc True",
        ["referencedBy netRef Hop/web False"],
        ["referencedBy netRef Hop/leaf False"],
      ],
    ]);
  });

  it("a table kubectl-style: the tree in NAME, not-Ready rows marked, messages on one line; wide shows them whole", () => {
    const table = renderTable(graph().trace("Hop", "ns", "web"), false).split("\n");
    expect(table[0]).toMatch(/^ {2}NAME +RELATION +READY +SYNCED +REASON +HREF +MESSAGE$/);
    expect(table.slice(1).map((l) => l.slice(0, 2) + l.slice(2).split(/ {3,}/)[0])).toEqual([
      "! Hop/web",
      "  ├─ Account/default",
      "  ├─ Net/vpc",
      "! └─ Net/gw",
    ]);
    expect(table[1]).toContain("DependencyNotReady");
    expect(table[1]).toContain("gatewayRef: Net gw does not exist yet");
    expect(table[3]).toContain("/api/networks/1");
    expect(table[4]).toContain(
      'NotFound        nets.cloud.svc.io "gw" not found'.replace(/ +/, " ").split(" ")[0],
    );
    const long = "x".repeat(100);
    const g = new ReferenceGraph(
      [{ kind: "Net", object: obj("n", { accountRef: account }, "False", { message: long }) }],
      KINDS,
      new Map(),
    );
    expect(renderTable(g.trace("Net", "ns", "n"), false)).toContain(`${"x".repeat(61)}...`);
    expect(renderTable(g.trace("Net", "ns", "n"), true)).toContain(long);
  });

  it("JSON: each node's identity, conditions and href, children nested", () => {
    const json = JSON.parse(renderJson(graph().trace("Hop", "ns", "leaf")));
    expect(json).toMatchObject({
      apiVersion: API_VERSION,
      kind: "Hop",
      name: "leaf",
      namespace: "ns",
      relation: "root",
      ready: "False",
      synced: "True",
      reason: "Creating",
      children: [
        { kind: "Account", field: "accountRef", ready: "True", reason: "Verified", children: [] },
        { kind: "Net", name: "vpc", field: "netRef", href: "/api/networks/1", found: true },
      ],
    });
  });
});

describe("trace: a network with its route table, from the real kinds' references", () => {
  // network/edge: its route table names it and is its default (an after-create association back);
  // a Subnet names both, a Route only the table; a second Subnet uses the network's default.
  const acct = { accountRef: account };
  const edge = () =>
    new ReferenceGraph(
      [
        { kind: "Account", object: obj("default", {}, "True") },
        {
          kind: "Network",
          object: obj(
            "edge",
            {
              ...acct,
              cloudHref: "/api/clouds/1",
              cidrBlock: "10.30.0.0/16",
              defaultRouteTableRef: { name: "edge-rt" },
            },
            "True",
          ),
        },
        { kind: "RouteTable", object: obj("edge-rt", { ...acct, networkRef: { name: "edge" } }, "True") },
        ...["edge-a", "edge-b"].map((name, i) => ({
          kind: "Subnet",
          object: obj(
            name,
            {
              ...acct,
              networkRef: { name: "edge" },
              cidrBlock: `10.30.${i + 1}.0/24`,
              datacenterHref: "/api/clouds/1/datacenters/1",
              ...(i === 0 ? { routeTableRef: { name: "edge-rt" } } : {}),
            },
            "True",
          ),
        })),
        {
          kind: "Route",
          object: obj(
            "edge-out",
            {
              ...acct,
              routeTableRef: { name: "edge-rt" },
              destinationCidrBlock: "0.0.0.0/0",
              nextHopType: "ip_string",
              nextHopIp: "10.30.1.10",
            },
            "True",
          ),
        },
      ],
      managedKinds,
      new Map(),
    );

  it("the route table below the network, with its Subnet and its Route; each resource once", () => {
    const tree = edge().trace("Network", "ns", "edge");
    expect(names(tree)).toEqual([
      "root  Network/edge True",
      ["references accountRef Account/default True"],
      [
        "referencedBy networkRef RouteTable/edge-rt True",
        ["referencedBy routeTableRef Subnet/edge-a True"],
        ["referencedBy routeTableRef Route/edge-out True"],
      ],
      ["referencedBy networkRef Subnet/edge-b True"],
    ]);
    const rows = rowsOf(tree).map((n) => `${n.kind}/${n.name}`);
    expect(new Set(rows).size).toBe(rows.length);
    // The network names the table back: one row says both.
    expect(tree.children[1]!.backField).toBe("defaultRouteTableRef");
    const table = renderTable(tree, false).split("\n");
    expect(table[3]).toMatch(
      /├─ RouteTable\/edge-rt +used by \(networkRef\), uses \(defaultRouteTableRef\) /,
    );
    expect(JSON.parse(renderJson(tree)).children[1]).toMatchObject({
      relation: "referencedBy",
      field: "networkRef",
      backField: "defaultRouteTableRef",
    });
  });

  it("from the Subnet up: its Account once, the network's default table under the network", () => {
    const tree = edge().trace("Subnet", "ns", "edge-a");
    expect(names(tree)).toEqual([
      "root  Subnet/edge-a True",
      ["references accountRef Account/default True"],
      ["references networkRef Network/edge True"],
      ["references routeTableRef RouteTable/edge-rt True"],
    ]);
    const rows = rowsOf(tree).map((n) => `${n.kind}/${n.name}`);
    expect(rows.filter((r) => r === "Account/default")).toHaveLength(1);
  });

  it("from the Account down: the whole chain in the order the operator makes it", () => {
    expect(names(edge().trace("Account", "ns", "default"))).toEqual([
      "root  Account/default True",
      [
        "referencedBy accountRef Network/edge True",
        [
          "referencedBy networkRef RouteTable/edge-rt True",
          ["referencedBy routeTableRef Subnet/edge-a True"],
          ["referencedBy routeTableRef Route/edge-out True"],
        ],
        ["referencedBy networkRef Subnet/edge-b True"],
      ],
    ]);
  });
});

describe("trace: the KIND/NAME argument", () => {
  it("takes a kind, plural, singular or short name, any case, with or without the group", () => {
    for (const typed of ["Route", "routes", "route", "ROUTE", "routes.cloud.svc.io"])
      expect(resolveKind(typed).kind, typed).toBe("Route");
    expect(parseTarget(["subnet/a"])).toEqual({ kind: { kind: "Subnet", plural: "subnets" }, name: "a" });
    expect(parseTarget(["account", "default"]).kind.kind).toBe("Account");
  });

  it.each([[[]], [["route"]], [["route/a", "b"]], [["route/"]], [["route/a/b"]], [["a", "b", "c"]]])(
    "refuses %j as kubectl does",
    (args) => {
      expect(() => parseTarget(args)).toThrow(TraceError);
      expect(() => parseTarget(args)).toThrow(/^error: you must specify one resource as KIND\/NAME/);
    },
  );

  it("an unknown kind: kubectl's message", () => {
    expect(() => resolveKind("pods")).toThrow('error: the server doesn\'t have a resource type "pods"');
  });
});
