import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApi } from "../../src/api/index.ts";
import type { Operator } from "../../src/runtime/manager/index.ts";
import {
  eventReasons,
  namespaceWithAccount,
  type Stack,
  startOperator,
  startStack,
  waitForCondition,
} from "../operator/harness.ts";
import { apply, deleteAndWaitGone, serviceApi, simCalls, until, waitReady } from "./helpers.ts";

/**
 * Issue 20: each writable href field of the network kinds is observed from the link the real
 * service sends, so a change made through the API behind the operator's back is seen at the
 * next resync and put back.
 */

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

const link = (o: { links: { rel: string; href?: string | null }[] }, rel: string) =>
  o.links.find((l) => l.rel === rel)?.href ?? undefined;

/** A namespace with a Ready Network `main`. */
async function withNetwork(spec: Record<string, unknown> = {}) {
  const ns = await namespaceWithAccount(stack);
  await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
  await apply(stack, ns, {
    kind: "Network",
    name: "main",
    spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16", ...spec },
  });
  const n = await waitReady(stack, ns, "Network", "main");
  return { ns, network: n.status!.href!, table: n.status!.atProvider!.defaultRouteTableHref as string };
}

async function corrected(ns: string, name: string, what: string, check: () => Promise<boolean>) {
  await operator.resyncNow();
  await until(what, async () => (await check()) || undefined);
  await until(`${name} DriftCorrected`, async () =>
    (await eventReasons(stack, ns, name)).includes("DriftCorrected"),
  );
}

describe("href drift of the network kinds", { timeout: 90_000 }, () => {
  it("Network deploymentHref (deployment link): another deployment set through the API is put back", async () => {
    const ns = await namespaceWithAccount(stack);
    await waitForCondition(stack, ns, "Account", "default", "Ready", "True");
    await apply(stack, ns, { kind: "Deployment", name: "web", spec: {} });
    const web = (await waitReady(stack, ns, "Deployment", "web")).status!.href!;
    const other = await api.deployments.create({ name: `other-${ns}` });
    await apply(stack, ns, {
      kind: "Network",
      name: "main",
      spec: { cloudHref: "/api/clouds/1", cidrBlock: "10.10.0.0/16", deploymentRef: { name: "web" } },
    });
    const href = (await waitReady(stack, ns, "Network", "main")).status!.href!;
    await api.networks.update(href, { deployment_href: other });
    await corrected(
      ns,
      "main",
      "deployment put back",
      async () => link(await api.networks.show(href), "deployment") === web,
    );
    await deleteAndWaitGone(stack, ns, "Network", "main");
    await deleteAndWaitGone(stack, ns, "Deployment", "web");
    await api.deployments.destroy(other);
  });

  it("Subnet routeTableHref (route_table link): an association removed through the API is put back", async () => {
    const { ns, network, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "Subnet",
      name: "a",
      spec: { networkHref: network, cidrBlock: "10.10.1.0/24", routeTableHref: table },
    });
    const s = await waitReady(stack, ns, "Subnet", "a");
    const href = s.status!.href!;
    expect(s.status?.atProvider?.routeTableHref).toBe(table);
    await api.subnets.update(href, { route_table_href: "" });
    expect(link(await api.subnets.show(href), "route_table")).toBeUndefined();
    await corrected(
      ns,
      "a",
      "route table put back",
      async () => link(await api.subnets.show(href), "route_table") === table,
    );
    await deleteAndWaitGone(stack, ns, "Subnet", "a");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

  it("NetworkGateway networkHref (network link): a gateway detached through the API is attached again", async () => {
    const { ns, network } = await withNetwork();
    await apply(stack, ns, {
      kind: "NetworkGateway",
      name: "igw",
      spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: "main" } },
    });
    const href = (await waitReady(stack, ns, "NetworkGateway", "igw")).status!.href!;
    await api.networkGateways.update(href, { network_href: "" });
    await corrected(
      ns,
      "igw",
      "attached again",
      async () => link(await api.networkGateways.show(href), "network") === network,
    );
    await deleteAndWaitGone(stack, ns, "NetworkGateway", "igw");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

  it("Route nextHopHref (next_hop link): another next hop set through the API is put back; the network is the route table's", async () => {
    const { ns, network, table } = await withNetwork();
    await apply(stack, ns, {
      kind: "NetworkGateway",
      name: "igw",
      spec: { cloudHref: "/api/clouds/1", type: "internet", networkRef: { name: "main" } },
    });
    const igw = (await waitReady(stack, ns, "NetworkGateway", "igw")).status!.href!;
    const spare = await api.networkGateways.create({
      cloud_href: "/api/clouds/1",
      name: `spare-${ns}`,
      type: "vpn",
    });
    await apply(stack, ns, {
      kind: "Route",
      name: "default",
      spec: {
        networkRef: { name: "main" },
        destinationCidrBlock: "0.0.0.0/0",
        nextHopType: "network_gateway",
        nextHopGatewayRef: { name: "igw" },
      },
    });
    const r = await waitReady(stack, ns, "Route", "default");
    const href = r.status!.href!;
    expect(r.status?.atProvider).toMatchObject({
      nextHopHref: igw,
      routeTableHref: table,
      networkHref: network,
    });

    // The route tables are known from the reconciles: a resync in sync reads no route table.
    const tableReads = await simCalls(stack, "GET", /^\/api\/route_tables(\/:id)?$/);
    expect(tableReads).toBeGreaterThan(0);
    await operator.resyncNow();
    expect(await simCalls(stack, "GET", /^\/api\/route_tables(\/:id)?$/)).toBe(tableReads);

    await api.routes.update(href, { next_hop_href: spare });
    await corrected(
      ns,
      "default",
      "next hop put back",
      async () => link(await api.routes.show(href), "next_hop") === igw,
    );
    await deleteAndWaitGone(stack, ns, "Route", "default");
    await deleteAndWaitGone(stack, ns, "NetworkGateway", "igw");
    await api.networkGateways.destroy(spare);
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });
});
