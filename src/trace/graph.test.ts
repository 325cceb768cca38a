import { describe, expect, it } from "vitest";
import * as z from "zod";
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
  `${n.relation} ${n.field ?? ""} ${n.kind}/${n.name} ${n.ready}${n.repeated ? " repeated" : ""}`,
  ...n.children.map(names),
];

describe("trace: the reference tree", () => {
  it("what a resource references up to its Account, each from the kind's declarations; a missing one marked", () => {
    const tree = graph().trace("Hop", "ns", "web");
    expect(names(tree)).toEqual([
      "root  Hop/web False",
      ["references accountRef Account/default True"],
      ["references netRef Net/vpc True", ["references accountRef Account/default True repeated"]],
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
    const account = graph().trace("Account", "ns", "default");
    // Every resource of the Account, once: the Hops hang off the Net, and are not expanded twice.
    expect(account.children.map((c) => `${c.kind}/${c.name}${c.repeated ? " repeated" : ""}`)).toEqual([
      "Net/vpc",
      "Hop/web repeated",
      "Hop/leaf repeated",
    ]);
    expect(account.children[0]!.children.map((c) => c.name)).toEqual(["web", "leaf"]);
  });

  it("a table kubectl-style: the tree in NAME, not-Ready rows marked, messages on one line; wide shows them whole", () => {
    const table = renderTable(graph().trace("Hop", "ns", "web"), false).split("\n");
    expect(table[0]).toMatch(/^ {2}NAME +RELATION +READY +SYNCED +REASON +HREF +MESSAGE$/);
    expect(table.slice(1).map((l) => l.slice(0, 2) + l.slice(2).split(/ {3,}/)[0])).toEqual([
      "! Hop/web",
      "  ├─ Account/default",
      "  ├─ Net/vpc",
      "  │  └─ Account/default (above)",
      "! └─ Net/gw",
    ]);
    expect(table[1]).toContain("DependencyNotReady");
    expect(table[1]).toContain("gatewayRef: Net gw does not exist yet");
    expect(table[3]).toContain("/api/networks/1");
    expect(table[5]).toContain(
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
