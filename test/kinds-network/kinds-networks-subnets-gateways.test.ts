import { describe, expect, it } from "vitest";
import { Annotation } from "../../src/runtime/sdk/index.ts";
import { condition, createCr, eventReasons, waitForCondition } from "../operator/harness.ts";
import {
  apply,
  deleteAndWaitGone,
  patch,
  remove,
  simCalls,
  simRecords,
  until,
  waitReady,
} from "./helpers.ts";
import {
  api,
  NETWORK,
  operator,
  readyNamespace,
  stack,
  useOperatorStack,
  withNetwork,
} from "./kinds-harness.ts";

useOperatorStack();

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
  it("a block with host bits set is taken as written, as the service takes it: no drift, no update", async () => {
    const { ns } = await withNetwork();
    await apply(stack, ns, {
      kind: "Subnet",
      name: "hosty",
      spec: { networkRef: { name: "main" }, cidrBlock: "10.10.3.5/24" },
    });
    const s = await waitReady(stack, ns, "Subnet", "hosty");
    expect(s.status?.atProvider?.cidrBlock).toBe("10.10.3.5/24");
    expect((await api.subnets.show(s.status!.href!)).cidr_block).toBe("10.10.3.5/24");
    const puts = await simCalls(stack, "PUT", /\/subnets\/:id$/);
    const resync = (await operator.resyncNow()).find((r) => r.kind === "Subnet")!;
    expect(resync).toMatchObject({ drifted: 0, missing: 0 });
    expect(await simCalls(stack, "PUT", /\/subnets\/:id$/)).toBe(puts);
    await remove(stack, ns, "Subnet", "hosty");
    await deleteAndWaitGone(stack, ns, "Network", "main");
  });

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
