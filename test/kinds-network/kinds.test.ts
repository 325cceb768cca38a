import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import { Annotation } from "../../src/runtime/names.ts";
import type { Operator } from "../../src/runtime/operator.ts";
import {
  condition,
  createCr,
  eventReasons,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitForCondition,
} from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  get,
  type Manifest,
  patch,
  remove,
  serviceApi,
  simCalls,
  simRecords,
  until,
  waitGone,
  waitReady,
} from "./helpers.ts";

let stack: Stack;
let operator: Operator;
let api: ServiceApi;

beforeAll(async () => {
  stack = await startStack();
  operator = await startOperator(stack);
  api = serviceApi(stack);
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
});

async function readyNamespace(): Promise<string> {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  return ns;
}

const NETWORK: Manifest = {
  kind: "Network",
  name: "main",
  spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16" },
};

/** A namespace with a Ready network `main`; returns its href. */
async function withNetwork(): Promise<{ ns: string; networkHref: string; table: string }> {
  const ns = await readyNamespace();
  await apply(stack, ns, NETWORK);
  const n = await waitReady(stack, ns, "Network", "main");
  return { ns, networkHref: n.status!.href!, table: n.status!.atProvider!.defaultRouteTableHref as string };
}

describe("Network", { timeout: 90_000 }, () => {
  it("creates by cloud name, reports the default route table, updates and deletes", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, {
      kind: "Network",
      name: "n1",
      spec: {
        cloud: { name: "EC2 us-east-1" },
        cidrBlock: "10.1.0.0/16",
        description: "one",
        instanceTenancy: "dedicated",
        deploymentRef: { name: "web" },
      },
    });
    // The network waits for the Deployment it names, then is created with it.
    const waiting = await waitForCondition(
      stack,
      ns,
      "Network",
      "n1",
      "Ready",
      "False",
      "DependencyNotReady",
      30_000,
    );
    expect(condition(waiting, "Ready")?.message).toMatch(/Deployment web/);
    await createCr(stack, ns, "Deployment", "web", {});
    const web = await waitForCondition(stack, ns, "Deployment", "web", "Ready", "True");
    const n = await waitReady(stack, ns, "Network", "n1");
    const href = n.status!.href!;
    expect(n.status?.atProvider).toMatchObject({
      name: "n1",
      description: "one",
      cidrBlock: "10.1.0.0/16",
      instanceTenancy: "dedicated",
      deploymentHref: web.status?.href,
      cloudHref: "/api/clouds/1",
      defaultRouteTableHref: expect.stringMatching(/^\/api\/route_tables\/\d+$/),
    });
    const puts = await simCalls(stack, "PUT", "/api/networks/:id");
    await patch(stack, ns, "Network", "n1", { spec: { name: "renamed", description: "two" } });
    await until("renamed in the service", async () => (await api.networks.show(href)).name === "renamed");
    expect((await api.networks.show(href)).description).toBe("two");
    expect(await simCalls(stack, "PUT", "/api/networks/:id")).toBe(puts + 1);
    await deleteAndWaitGone(stack, ns, "Network", "n1");
    expect(simRecords(stack, "networks").find((r) => `/api/networks/${r.id}` === href)).toBeUndefined();
  });

  it("stalls before any create on a cloud whose supports_networks is false", async () => {
    const ns = await readyNamespace();
    const posts = await simCalls(stack, "POST", "/api/networks");
    await apply(stack, ns, { kind: "Network", name: "lab", spec: { cloudHref: "/api/clouds/2" } });
    const n = await waitForCondition(stack, ns, "Network", "lab", "Stalled", "True", "InvalidSpec", 30_000);
    expect(condition(n, "Stalled")?.message).toMatch(
      /spec\.cloudHref: cloud \/api\/clouds\/2 does not support networks/,
    );
    expect(await simCalls(stack, "POST", "/api/networks")).toBe(posts);
    await deleteAndWaitGone(stack, ns, "Network", "lab");
  });

  it("stalls when an adopted network's create-only field differs from the spec", async () => {
    const ns = await readyNamespace();
    const href = await api.networks.create({
      cloud_href: "/api/clouds/1",
      name: "byhand",
      cidr_block: "10.77.0.0/16",
    });
    await apply(stack, ns, {
      kind: "Network",
      name: "byhand",
      spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.78.0.0/16", deletionPolicy: "Orphan" },
      metadata: { annotations: { [Annotation.href]: href } },
    });
    const n = await waitForCondition(
      stack,
      ns,
      "Network",
      "byhand",
      "Stalled",
      "True",
      "ImmutableField",
      30_000,
    );
    expect(condition(n, "Stalled")?.message).toMatch(/spec\.cidrBlock cannot be changed/);
    await deleteAndWaitGone(stack, ns, "Network", "byhand");
    await api.networks.destroy(href);
  });

  it("ObserveOnly reports an existing network and never writes it", async () => {
    const ns = await readyNamespace();
    const href = await api.networks.create({
      cloud_href: "/api/clouds/1",
      name: "watched",
      cidr_block: "10.66.0.0/16",
    });
    const puts = await simCalls(stack, "PUT", "/api/networks/:id");
    await apply(stack, ns, {
      kind: "Network",
      name: "watched",
      spec: {
        cloudHref: "/api/clouds/1",
        cidrBlock: "10.66.0.0/16",
        description: "not applied",
        managementPolicy: "ObserveOnly",
      },
      metadata: { annotations: { [Annotation.href]: href } },
    });
    const n = await waitReady(stack, ns, "Network", "watched");
    expect(n.status?.atProvider).toMatchObject({ name: "watched", cidrBlock: "10.66.0.0/16" });
    expect(n.status?.atProvider?.defaultRouteTableHref).toMatch(/^\/api\/route_tables\/\d+$/);
    await deleteAndWaitGone(stack, ns, "Network", "watched");
    expect(await simCalls(stack, "PUT", "/api/networks/:id")).toBe(puts);
    expect((await api.networks.show(href)).description).toBeNull();
    await api.networks.destroy(href);
  });

  it("puts back a name and description changed through the API, on resync", async () => {
    const { ns, networkHref } = await withNetwork();
    await patch(stack, ns, "Network", "main", { spec: { description: "managed" } });
    await until(
      "description applied",
      async () => (await api.networks.show(networkHref)).description === "managed",
    );
    await waitReady(stack, ns, "Network", "main");
    await api.networks.update(networkHref, { name: "hijacked", description: "changed by hand" });
    await operator.resyncNow();
    await until("drift corrected", async () => {
      const n = await api.networks.show(networkHref);
      return n.name === "main" && n.description === "managed";
    });
    await until("DriftCorrected event", async () =>
      (await eventReasons(stack, ns, "main")).includes("DriftCorrected"),
    );
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });
});

describe("Subnet", { timeout: 90_000 }, () => {
  it("waits for its Network, naming it, and starts when it is Ready", async () => {
    const ns = await readyNamespace();
    await apply(stack, ns, {
      kind: "Subnet",
      name: "s1",
      spec: { networkRef: { name: "main" }, cidrBlock: "10.10.1.0/24" },
    });
    const waiting = await waitForCondition(
      stack,
      ns,
      "Subnet",
      "s1",
      "Ready",
      "False",
      "DependencyNotReady",
      30_000,
    );
    expect(condition(waiting, "Ready")?.message).toMatch(/Network main/);
    await apply(stack, ns, NETWORK);
    // The DependencyNotReady retry is 60 s: converging well within this wait means the reference
    // index re-queued the subnet the moment its Network became Ready.
    const s = await waitReady(stack, ns, "Subnet", "s1", 45_000);
    expect(s.status?.atProvider).toMatchObject({
      cidrBlock: "10.10.1.0/24",
      state: "available",
      cloudHref: "/api/clouds/1",
    });
    await remove(stack, ns, "Subnet", "s1");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

  it("stalls on a CIDR outside the network's before any call", async () => {
    const { ns } = await withNetwork();
    const posts = await simCalls(stack, "POST", "/api/clouds/:cloud_id/subnets");
    await apply(stack, ns, {
      kind: "Subnet",
      name: "out",
      spec: { networkRef: { name: "main" }, cidrBlock: "10.99.1.0/24" },
    });
    const s = await waitForCondition(stack, ns, "Subnet", "out", "Stalled", "True", "InvalidSpec", 30_000);
    expect(condition(s, "Stalled")?.message).toMatch(
      /spec\.cidrBlock: 10\.99\.1\.0\/24 is not inside the CIDR block 10\.10\.0\.0\/16/,
    );
    expect(await simCalls(stack, "POST", "/api/clouds/:cloud_id/subnets")).toBe(posts);
    await remove(stack, ns, "Subnet", "out");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

  it("updates name, description, CIDR; an empty routeTableHref keeps the default; puts back drift", async () => {
    const { ns, networkHref, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "Subnet",
      name: "s2",
      spec: { networkHref, cidrBlock: "10.10.2.0/24", routeTableHref: "" },
    });
    const s = await waitReady(stack, ns, "Subnet", "s2");
    const href = s.status!.href!;
    expect(s.status?.atProvider?.effectiveRouteTableHref).toBe(table);
    await patch(stack, ns, "Subnet", "s2", {
      spec: { name: "s2b", description: "d", cidrBlock: "10.10.3.0/24" },
    });
    await until("subnet updated", async () => {
      const o = await api.subnets.show(href);
      return o.name === "s2b" && o.description === "d" && o.cidr_block === "10.10.3.0/24";
    });
    await waitReady(stack, ns, "Subnet", "s2");
    await api.subnets.update(href, { cidr_block: "10.10.4.0/24", description: "hand" });
    await operator.resyncNow();
    await until("subnet drift corrected", async () => {
      const o = await api.subnets.show(href);
      return o.cidr_block === "10.10.3.0/24" && o.description === "d";
    });
    await deleteAndWaitGone(stack, ns, "Subnet", "s2");
    expect(simRecords(stack, "subnets").some((r) => href.endsWith(`/subnets/${r.id}`))).toBe(false);
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });
});

describe("NetworkGateway", { timeout: 90_000 }, () => {
  it("attaches through update, detaches when the reference is removed, detaches before deletion", async () => {
    const { ns, networkHref } = await withNetwork();
    await apply(stack, ns, {
      kind: "NetworkGateway",
      name: "gw",
      spec: { cloudHref: "/api/clouds/1", type: "vpn", networkRef: { name: "main" } },
    });
    const g = await waitReady(stack, ns, "NetworkGateway", "gw");
    const href = g.status!.href!;
    const attached = async () =>
      (await api.networkGateways.show(href)).links.find((l) => l.rel === "network")?.href;
    expect(await attached()).toBe(networkHref);
    await patch(stack, ns, "NetworkGateway", "gw", { spec: { networkRef: null, description: "spare" } });
    await until("detached", async () => (await attached()) === undefined);
    expect((await api.networkGateways.show(href)).description).toBe("spare");
    await patch(stack, ns, "NetworkGateway", "gw", { spec: { networkRef: { name: "main" } } });
    await until("attached again", async () => (await attached()) === networkHref);
    const puts = await simCalls(stack, "PUT", "/api/network_gateways/:id");
    await deleteAndWaitGone(stack, ns, "NetworkGateway", "gw");
    expect(await simCalls(stack, "PUT", "/api/network_gateways/:id")).toBe(puts + 1);
    expect(simRecords(stack, "network_gateways")).toEqual([]);
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });
});

describe("Network deletion with an orphaned gateway still attached", { timeout: 90_000 }, () => {
  it("detaches the gateway, then deletes the network", async () => {
    const { ns, networkHref } = await withNetwork();
    await apply(stack, ns, {
      kind: "NetworkGateway",
      name: "kept",
      spec: {
        cloudHref: "/api/clouds/1",
        type: "internet",
        networkRef: { name: "main" },
        deletionPolicy: "Orphan",
      },
    });
    const gw = (await waitReady(stack, ns, "NetworkGateway", "kept")).status!.href!;
    await deleteAndWaitGone(stack, ns, "NetworkGateway", "kept");
    expect((await api.networkGateways.show(gw)).links.find((l) => l.rel === "network")?.href).toBe(
      networkHref,
    );
    await deleteAndWaitGone(stack, ns, "Network", "main");
    expect(simRecords(stack, "networks").some((r) => networkHref.endsWith(`/${r.id}`))).toBe(false);
    expect((await api.networkGateways.show(gw)).links.find((l) => l.rel === "network")).toBeUndefined();
    await api.networkGateways.destroy(gw);
  });
});

describe("Route", { timeout: 90_000 }, () => {
  it("creates, updates in place, replaces a URL next hop leaving exactly one route, deletes", async () => {
    const { ns, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "Route",
      name: "r",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "10.50.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.5",
      },
    });
    const r = await waitReady(stack, ns, "Route", "r");
    const first = r.status!.href!;
    expect(r.status?.atProvider).toMatchObject({ routeTableHref: table, nextHopIp: "10.10.0.5" });
    await patch(stack, ns, "Route", "r", { spec: { nextHopIp: "10.10.0.6", description: "moved" } });
    await until("updated in place", async () => {
      const o = await api.routes.show(first);
      return o.description === "moved" && (o as { next_hop_ip?: string }).next_hop_ip === "10.10.0.6";
    });
    await waitReady(stack, ns, "Route", "r");

    // ip -> url and then a new url: the update call cannot carry next_hop_url, so the route is replaced.
    await patch(stack, ns, "Route", "r", {
      spec: { nextHopType: "url", nextHopIp: null, nextHopUrl: "https://a.example.com" },
    });
    const second = await until("replaced by a url route", async () => {
      const o = await get(stack, ns, "Route", "r");
      return o?.status?.atProvider?.nextHopUrl === "https://a.example.com" &&
        condition(o, "Ready")?.status === "True"
        ? o.status.href
        : undefined;
    });
    expect(second).not.toBe(first);
    await patch(stack, ns, "Route", "r", { spec: { nextHopUrl: "https://b.example.com" } });
    const third = await until("replaced again", async () => {
      const o = await get(stack, ns, "Route", "r");
      return o?.status?.atProvider?.nextHopUrl === "https://b.example.com" &&
        condition(o, "Ready")?.status === "True"
        ? o.status.href
        : undefined;
    });
    const forDestination = simRecords<{ destination_cidr_block: string; next_hop_url: string }>(
      stack,
      "routes",
    ).filter((x) => x.destination_cidr_block === "10.50.0.0/16");
    expect(forDestination).toHaveLength(1);
    expect(forDestination[0]!.next_hop_url).toBe("https://b.example.com");
    expect(third).toMatch(new RegExp(`/routes/${forDestination[0]!.id}$`));
    const o = await get(stack, ns, "Route", "r");
    expect(o?.metadata.annotations?.[Annotation.replaces]).toBeUndefined();
    await until("Replaced event", async () => (await eventReasons(stack, ns, "r")).includes("Replaced"));

    await deleteAndWaitGone(stack, ns, "Route", "r");
    expect(simRecords(stack, "routes")).toEqual([]);
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

  it("moving to another route table replaces the route: created in the new table, then deleted from the old", async () => {
    const { ns, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "Network",
      name: "other",
      spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.11.0.0/16" },
    });
    const otherTable = (await waitReady(stack, ns, "Network", "other")).status!.atProvider!
      .defaultRouteTableHref as string;
    await apply(stack, ns, {
      kind: "Route",
      name: "mv",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "10.55.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.5",
      },
    });
    const first = (await waitReady(stack, ns, "Route", "mv")).status!.href!;
    expect(first.startsWith(`${table}/`)).toBe(true);
    await patch(stack, ns, "Route", "mv", { spec: { networkRef: null, routeTableHref: otherTable } });
    const moved = await until("route in the other table", async () => {
      const o = await get(stack, ns, "Route", "mv");
      return o?.status?.href?.startsWith(`${otherTable}/`) && condition(o, "Ready")?.status === "True"
        ? o.status.href
        : undefined;
    });
    const routes = simRecords<{ destination_cidr_block: string }>(stack, "routes").filter(
      (r) => r.destination_cidr_block === "10.55.0.0/16",
    );
    expect(routes).toHaveLength(1);
    expect(moved.endsWith(`/routes/${routes[0]!.id}`)).toBe(true);
    // Created before deleted: the new route's id is higher and the old one went after it existed.
    expect(Number(routes[0]!.id)).toBeGreaterThan(Number(first.split("/").pop()));
    await deleteAndWaitGone(stack, ns, "Route", "mv");
    await remove(stack, ns, "Network", "other");
    await deleteAndWaitGone(stack, ns, "Network", "main");
    await waitGone(stack, ns, "Network", "other");
  });

  it("puts back a next hop changed through the API, on resync", async () => {
    const { ns } = await withNetwork();
    await apply(stack, ns, {
      kind: "Route",
      name: "r2",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "10.60.0.0/16",
        nextHopType: "ip_string",
        nextHopIp: "10.10.0.7",
      },
    });
    const href = (await waitReady(stack, ns, "Route", "r2")).status!.href!;
    await api.routes.update(href, { next_hop_ip: "10.10.0.99" });
    await operator.resyncNow();
    await until(
      "next hop put back",
      async () => ((await api.routes.show(href)) as { next_hop_ip?: string }).next_hop_ip === "10.10.0.7",
    );
    await remove(stack, ns, "Route", "r2");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });
});

describe("orphan and adopt", { timeout: 90_000 }, () => {
  it("each kind: Orphan leaves the object; the href annotation adopts it back; Delete then removes it", async () => {
    const { ns } = await withNetwork();
    const children: Manifest[] = [
      { kind: "Subnet", name: "o-sub", spec: { networkRef: { name: "main" }, cidrBlock: "10.10.9.0/24" } },
      {
        kind: "NetworkGateway",
        name: "o-gw",
        spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: "main" } },
      },
      {
        kind: "Route",
        name: "o-route",
        spec: {
          networkRef: { name: "main" },
          destinationCidrBlock: "10.70.0.0/16",
          nextHopType: "ip_string",
          nextHopIp: "10.10.9.9",
        },
      },
    ];
    const collection: Record<string, string> = {
      Subnet: "subnets",
      NetworkGateway: "network_gateways",
      Route: "routes",
    };
    for (const m of children) {
      await apply(stack, ns, { ...m, spec: { ...m.spec, deletionPolicy: "Orphan" } });
      const href = (await waitReady(stack, ns, m.kind, m.name)).status!.href!;
      await deleteAndWaitGone(stack, ns, m.kind, m.name);
      expect(
        simRecords(stack, collection[m.kind]!).some((r) => href.endsWith(`/${r.id}`)),
        `${m.kind} orphaned`,
      ).toBe(true);

      const creates = await simCalls(
        stack,
        "POST",
        m.kind === "Subnet"
          ? "/api/clouds/:cloud_id/subnets"
          : m.kind === "Route"
            ? "/api/routes"
            : "/api/network_gateways",
      );
      await apply(stack, ns, { ...m, metadata: { annotations: { [Annotation.href]: href } } });
      const adopted = await waitReady(stack, ns, m.kind, m.name);
      expect(adopted.status?.href).toBe(href);
      await until(`${m.kind} Adopted event`, async () =>
        (await eventReasons(stack, ns, m.name)).includes("Adopted"),
      );
      expect(
        await simCalls(
          stack,
          "POST",
          m.kind === "Subnet"
            ? "/api/clouds/:cloud_id/subnets"
            : m.kind === "Route"
              ? "/api/routes"
              : "/api/network_gateways",
        ),
      ).toBe(creates);
      await deleteAndWaitGone(stack, ns, m.kind, m.name);
      expect(
        simRecords(stack, collection[m.kind]!).some((r) => href.endsWith(`/${r.id}`)),
        `${m.kind} deleted`,
      ).toBe(false);
    }
    // The network itself: orphan, adopt, delete.
    const netHref = (await get(stack, ns, "Network", "main"))!.status!.href!;
    await patch(stack, ns, "Network", "main", { spec: { deletionPolicy: "Orphan" } });
    await waitReady(stack, ns, "Network", "main");
    await deleteAndWaitGone(stack, ns, "Network", "main");
    expect((await api.networks.show(netHref)).name).toBe("main");
    await apply(stack, ns, { ...NETWORK, metadata: { annotations: { [Annotation.href]: netHref } } });
    expect((await waitReady(stack, ns, "Network", "main")).status?.href).toBe(netHref);
    await deleteAndWaitGone(stack, ns, "Network", "main");
    expect(simRecords(stack, "networks").some((r) => netHref.endsWith(`/${r.id}`))).toBe(false);
  }, 60_000);
});
