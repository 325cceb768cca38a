import { describe, expect, it } from "vitest";
import { managedKinds } from "../kinds/index.ts";
import { UsageError } from "../lib/cli/index.ts";
import type { Entry } from "./entry.ts";
import { RefGraph } from "./refs.ts";
import { parseFilter, parseKinds, selected } from "./select.ts";

const kindOf = (name: string) => managedKinds.find((k) => k.kind === name)!;

describe("parseKinds", () => {
  it("takes any name of a kind, in any case, and keeps the dependency order", () => {
    expect(parseKinds(managedKinds, "subnets, Network,svcdep").map((k) => k.kind)).toEqual([
      "Deployment",
      "Network",
      "Subnet",
    ]);
    expect(parseKinds(managedKinds, undefined)).toHaveLength(managedKinds.length);
  });

  it("refuses a name that is no kind, listing the kinds", () => {
    expect(() => parseKinds(managedKinds, "network,vpc")).toThrow(UsageError);
    expect(() => parseKinds(managedKinds, "vpc")).toThrow(/^--kinds: no kind "vpc"; kinds are Deployment, /);
    expect(() => parseKinds(managedKinds, ",")).toThrow("--kinds: must name at least one kind");
  });
});

describe("parseFilter", () => {
  it("is KIND=NAME", () => {
    expect(parseFilter(managedKinds, "deployment=web app")).toEqual({
      kind: kindOf("Deployment"),
      name: "web app",
    });
    expect(() => parseFilter(managedKinds, "deployment")).toThrow("--filter deployment: must be KIND=NAME");
    expect(() => parseFilter(managedKinds, "server=a")).toThrow('--filter server=a: no kind "server"');
  });
});

describe("selected", () => {
  const entry = (kind: string, name: string, href: string, spec: Record<string, unknown> = {}): Entry => ({
    item: { kind: kindOf(kind), href, scope: "", observed: {}, at: { name } },
    name,
    spec,
    replaced: new Map(),
  });

  it("keeps what the filter names and what references it, by name or by href, transitively", () => {
    const web = entry("Deployment", "web", "/api/deployments/1");
    const other = entry("Deployment", "other", "/api/deployments/2");
    const net = entry("Network", "main", "/api/networks/1", { deploymentHref: "/api/deployments/1" });
    const sub = entry("Subnet", "a", "/api/clouds/1/subnets/1", { networkRef: { name: "main" } });
    const graph = new RefGraph();
    graph.add("Subnet/a", "Network/main");
    const kept = selected([web, other, net, sub], [{ kind: kindOf("Deployment"), name: "web" }], graph);
    expect([...kept].map((e) => e.name).sort()).toEqual(["a", "main", "web"]);
  });
});

describe("RefGraph", () => {
  it("tells whether a reference would close a cycle", () => {
    const g = new RefGraph();
    g.add("a", "b");
    g.add("b", "c");
    expect(g.reaches("a", "c")).toBe(true);
    expect(g.reaches("c", "a")).toBe(false);
  });
});
