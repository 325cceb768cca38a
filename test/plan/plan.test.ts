import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { parseManifests } from "../../src/plan/manifests.ts";
import { setOfEveryKind } from "../export/brownfield.ts";
import {
  applyDirectory,
  cli,
  clusterVersion,
  contentConfigMaps,
  exportedStack,
  mutatingCalls,
  type Write,
} from "../export/rig.ts";
import { type Stack, serviceApi, startStack } from "../operator/harness.ts";

const NS = "plan";
const ENV = { SVC_REFRESH_TOKEN: "dev-refresh-token" };

/** Manifests of objects that do not exist yet: a network with a subnet (a create after a create). */
const NEW_OBJECTS = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    [
      `apiVersion: cloud.svc.io/v1alpha1\nkind: Network\nmetadata: {name: new-${i}}`,
      `spec: {cloudHref: /api/clouds/1, cidrBlock: 10.${100 + (i % 100)}.0.0/16}`,
      "---",
      `apiVersion: cloud.svc.io/v1alpha1\nkind: Subnet\nmetadata: {name: new-${i}-a}`,
      `spec: {networkRef: {name: new-${i}}, cidrBlock: 10.${100 + (i % 100)}.1.0/24, datacenterHref: /api/clouds/1/datacenters/1}`,
    ].join("\n"),
  ).join("\n---\n");

describe("plan against a cluster", () => {
  let stack: Stack;
  let writes: Write[];
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ stack, writes, dir, kubeconfig } = await exportedStack(NS));
    await applyDirectory(stack, dir);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("writes nothing anywhere: no mutating call to the service, no write to the cluster", async () => {
    const networks = join(dir, "networks.yaml");
    await writeFile(
      networks,
      `${(await readFile(networks, "utf8")).replace("description: main network", "description: changed")}---\n${NEW_OBJECTS(2)}\n---\napiVersion: cloud.svc.io/v1alpha1\nkind: Network\nmetadata: {name: broken}\nspec: {cidrBlock: 10.1.0.0/16}\n`,
    );
    stack.sim.core.stats.clear();
    writes.length = 0;
    const before = await clusterVersion(stack);
    const r = await cli(["plan", "-f", dir, "--kubeconfig", kubeconfig, "--namespace", NS]);
    expect(r.out).toMatch(/^update +Network plan\/main +description: "main network" -> "changed"$/m);
    expect(r.out).toMatch(/^create +Network plan\/new-0$/m);
    expect(r.out).toMatch(/^create +Subnet plan\/new-0-a +after Network new-0 is created$/m);
    expect(r.out).toMatch(
      /^invalid +Network plan\/broken +spec\.cloudHref: .*exactly one of cloudHref, cloud must be set$/m,
    );
    expect(r.code).toBe(1);
    expect(await mutatingCalls(stack)).toEqual([]);
    expect(writes).toEqual([]);
    expect(await clusterVersion(stack)).toBe(before);
  });

  it("reads the href of an object the cluster holds, though the manifest does not carry it", async () => {
    const file = join(dir, "permissions.yaml");
    const first = (await readFile(file, "utf8")).split("---\n")[0]!;
    const doc = parse(first) as { metadata: { annotations?: Record<string, string> } };
    delete doc.metadata.annotations;
    const r = await cli(
      ["plan", "-f", "-", "--kubeconfig", kubeconfig, "-o", "yaml"],
      {},
      JSON.stringify(doc),
    );
    expect(r.code).toBe(0);
    expect(parse(r.out).resources[0]).toMatchObject({
      action: "no change",
      href: "/api/permissions/1-actor",
    });
    // Without the cluster only the annotation counts: the grant exists, so the kind adopts it.
    const alone = await cli(
      ["plan", "-f", "-", "--no-cluster", "--endpoint", stack.sim.url, "--account-id", "1", "-o", "json"],
      ENV,
      JSON.stringify(doc),
    );
    expect(alone.code).toBe(2);
    expect(JSON.parse(alone.out).resources[0]).toMatchObject({
      action: "adopt",
      href: "/api/permissions/1-actor",
    });
  });
});

/**
 * Exported manifests (Manage) of `n` sets of objects of every kind made through the API: a
 * deployment, a network with a subnet, a route table with a route and a subnet associated with it,
 * an IP address with a binding, a resource group, an alert spec and a stored script attachment
 * (with the ConfigMap of its content); and `n` new networks with a subnet.
 */
async function manifestsOf(stack: Stack, from: number, n: number): Promise<string> {
  const api = serviceApi(stack);
  for (let i = from; i < n; i++) await setOfEveryKind(api, i);
  const r = await cli(
    ["export", "--endpoint", stack.sim.url, "--account-id", "1", "--out", "-", "--manage"],
    ENV,
  );
  expect(r.code, r.err).toBe(0);
  const contents = await contentConfigMaps(api, parseManifests(r.out, "export"));
  return [r.out, ...contents.map((c) => stringify(c)), NEW_OBJECTS(n)].join("\n---\n");
}

describe("plan's service calls do not grow with the number of manifests", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  it("costs the same number of API calls for N and 10N objects (index calls, never one per object)", async () => {
    const calls: number[] = [];
    const sizes: number[] = [];
    let made = 0;
    for (const n of [15, 150]) {
      const text = await manifestsOf(stack, made, n);
      made = n;
      const r = await cli(
        ["plan", "-f", "-", "--no-cluster", "--endpoint", stack.sim.url, "--account-id", "1", "-o", "json"],
        ENV,
        text,
      );
      expect(r.code, r.err).toBe(2);
      const plan = JSON.parse(r.out) as { resources: { action: string }[]; apiCalls: number };
      expect(plan.resources.filter((x) => x.action === "create")).toHaveLength(2 * n);
      expect(plan.resources.filter((x) => x.action !== "create" && x.action !== "no change")).toEqual([]);
      sizes.push(plan.resources.length);
      calls.push(plan.apiCalls);
    }
    expect(sizes[1]).toBeGreaterThan(sizes[0]! * 8);
    expect(calls[1]).toBe(calls[0]);
    expect(calls[0]).toBeLessThan(25);
  }, 120_000);
});
