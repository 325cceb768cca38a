import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { InformerSet, type ListPage, pagedList } from "../../src/runtime/cache/index.ts";
import { RawKube } from "../../src/runtime/client/index.ts";
import type { ManagedObject } from "../../src/runtime/sdk/index.ts";
import { API_VERSION } from "../../src/runtime/sdk/index.ts";
import { ConditionTally, ProblemLog } from "../../src/runtime/telemetry/index.ts";
import { FakeClock, memoryLog } from "../../src/runtime/testing/index.ts";

const path = (name = "") => `/apis/${API_VERSION}/namespaces/ns/deployments${name ? `/${name}` : ""}`;

const managedFields = (o: ManagedObject | undefined) =>
  (o?.metadata as { managedFields?: unknown[] } | undefined)?.managedFields;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("InformerSet against the devcluster", () => {
  let cluster: DevCluster;
  let raw: RawKube;
  let informers: InformerSet;
  const added: ManagedObject[] = [];
  const tally = new ConditionTally();
  const updated: { object: ManagedObject; old: ManagedObject | undefined }[] = [];

  beforeAll(async () => {
    cluster = await createDevCluster();
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    raw = new RawKube(kc);
    const crd = parse(await readFile(join(import.meta.dirname, "../../crds/deployment.yaml"), "utf8"));
    await raw.call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    await raw.call("POST", "/api/v1/namespaces", { metadata: { name: "ns" } });
    await raw.call("POST", path(), {
      apiVersion: API_VERSION,
      kind: "Deployment",
      metadata: { name: "web" },
      spec: { accountRef: { name: "default" }, description: "first" },
    });
    informers = new InformerSet({
      kubeConfig: kc,
      kube: raw,
      kinds: [{ kind: "Deployment", plural: "deployments" }],
      namespaces: [],
      handlers: {
        added: (_kind, object) => added.push(object),
        updated: (_kind, object, old) => updated.push({ object, old }),
        deleted: () => {},
      },
      onChange: (kind, before, after) => tally.change(kind, before, after),
      log: pino({ level: "silent" }),
    });
    await informers.start();
  });

  afterAll(async () => {
    await informers?.stop();
    await raw?.close();
    await cluster?.close();
  });

  it("caches listed objects without managedFields", async () => {
    const stored = await raw.call<ManagedObject>("GET", path("web"));
    expect(managedFields(stored)?.length).toBeGreaterThan(0);
    const cached = informers.get("Deployment", "ns", "web");
    expect(cached?.metadata.name).toBe("web");
    expect(cached?.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
    expect(managedFields(cached)).toBeUndefined();
    expect(added.map((o) => o.metadata.name)).toEqual(["web"]);
    expect(added[0]).toBe(cached);
  });

  it("delivers watched updates without managedFields, with the version before", async () => {
    await raw.call("PATCH", path("web"), { spec: { description: "second" } }, "application/merge-patch+json");
    await until(() => updated.length > 0, "the update");
    const { object, old } = updated[0]!;
    expect(object.spec).toMatchObject({ description: "second" });
    expect(managedFields(object)).toBeUndefined();
    expect(old?.spec).toMatchObject({ description: "first" });
    expect(informers.get("Deployment", "ns", "web")).toBe(object);
    expect(informers.list("Deployment")).toEqual([object]);
  });

  it("keeps the parts an update left as they were from the version before (its spec after a metadata write)", async () => {
    const before = informers.get("Deployment", "ns", "web")!;
    await raw.call(
      "PATCH",
      path("web"),
      { metadata: { labels: { tier: "web" } } },
      "application/merge-patch+json",
    );
    await until(
      () => informers.get("Deployment", "ns", "web")?.metadata.labels?.tier === "web",
      "the update",
    );
    const after = informers.get("Deployment", "ns", "web")!;
    expect(after).not.toBe(before);
    expect(after.spec).toBe(before.spec);
  });

  it("hands each change over with the version it replaces: the condition tally follows the cache", async () => {
    const ready = () => tally.kinds().next().value?.[1].get("Ready");
    expect(ready()).toEqual([0, 0, 0]);
    const status = (s: string) => ({
      status: {
        conditions: [{ type: "Ready", status: s, reason: "R", message: "", lastTransitionTime: "" }],
      },
    });
    await raw.call("PATCH", `${path("web")}/status`, status("False"), "application/merge-patch+json");
    await until(() => ready()?.[1] === 1, "Ready=False counted");
    await raw.call("PATCH", `${path("web")}/status`, status("True"), "application/merge-patch+json");
    await until(() => ready()?.[0] === 1, "Ready=True counted");
    expect(ready()).toEqual([1, 0, 0]);
    await raw.call("POST", path(), {
      apiVersion: API_VERSION,
      kind: "Deployment",
      metadata: { name: "api" },
      spec: { accountRef: { name: "default" } },
    });
    await raw.call("PATCH", `${path("api")}/status`, status("True"), "application/merge-patch+json");
    await until(() => ready()?.[0] === 2, "the second");
    await raw.call("DELETE", path("api"));
    await until(() => ready()?.[0] === 1, "the deletion");
    expect(ready()).toEqual([1, 0, 0]);
  });

  it("reads a list page by page with the server's continue token, slimming each page", async () => {
    for (const name of ["b", "c"])
      await raw.call("POST", path(), {
        apiVersion: API_VERSION,
        kind: "Deployment",
        metadata: { name },
        spec: { accountRef: { name: "default" } },
      });
    const tokens: (string | undefined)[] = [];
    const list = await pagedList((cont) => {
      tokens.push(cont);
      const query = new URLSearchParams({ limit: "2", ...(cont ? { continue: cont } : {}) });
      return raw.call<ListPage>("GET", `${path()}?${query}`);
    });
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toBeUndefined();
    expect(tokens[1]).toEqual(expect.any(String));
    expect(list.items.map((o) => o.metadata?.name).sort()).toEqual(["b", "c", "web"]);
    expect(list.items.every((o) => managedFields(o as ManagedObject) === undefined)).toBe(true);
    expect(list.metadata?.resourceVersion).toEqual(expect.any(String));
  });
});

describe("InformerSet when the apiserver refuses", () => {
  /** A FakeClock that records the delays asked of it. */
  class RecordingClock extends FakeClock {
    readonly delays: number[] = [];
    override setTimeout(fn: () => void, ms: number): unknown {
      this.delays.push(ms);
      return super.setTimeout(fn, ms);
    }
  }

  let cluster: DevCluster;
  let informers: InformerSet;
  const clock = new RecordingClock();
  const { log, lines, text } = memoryLog("info");
  const errors: string[] = [];

  beforeAll(async () => {
    cluster = await createDevCluster({ deny: [{ verb: "list", resource: "deployments" }] });
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const crd = parse(await readFile(join(import.meta.dirname, "../../crds/deployment.yaml"), "utf8"));
    await new RawKube(kc).call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
    informers = new InformerSet({
      kubeConfig: kc,
      kube: new RawKube(kc),
      kinds: [{ kind: "Deployment", plural: "deployments" }],
      namespaces: [],
      handlers: { added: () => {}, updated: () => {}, deleted: () => {} },
      log,
      clock,
      problems: new ProblemLog({ log, clock, gatherMs: 0 }),
      onError: (kind, reason) => errors.push(`${kind} ${reason}`),
      random: () => 1,
    });
    await informers.start();
  });

  afterAll(async () => {
    await informers?.stop();
    await cluster?.close();
  });

  /** Fires the pending restart and waits for the attempt it makes to end (the next one is scheduled, or none is). */
  async function retry(): Promise<void> {
    const asked = clock.delays.length;
    clock.advance(clock.delays.at(-1)!);
    await until(() => clock.delays.length > asked || informers.synced, "the restart's attempt");
  }

  it("is not ready, says why, and logs the refusal once, readable, without the exception", async () => {
    expect(informers.synced).toBe(false);
    expect(informers.notReady()).toEqual([
      expect.stringMatching(/^Deployment: cannot list deployments\.cloud\.svc\.io \(403 Forbidden: /),
    ]);
    // Nine attempts over 77 s (of the fake clock): the first line, then one a minute.
    for (let i = 0; i < 8; i++) await retry();
    const first =
      'cannot list deployments.cloud.svc.io (403 Forbidden: deployments.cloud.svc.io is forbidden: User "system:serviceaccount:svc-operator-system:svc-operator" cannot list resource "deployments" in API group "cloud.svc.io" at the cluster scope); ' +
      "the operator's ServiceAccount lacks `list` on deployments.cloud.svc.io: apply deploy/operator/rbac.yaml";
    expect(lines.map((l) => l.msg)).toEqual([
      first,
      `still failing: ${first} (7 failed attempts in the last 1m17s)`,
    ]);
    expect(lines[0]).toMatchObject({
      verb: "list",
      resource: "deployments.cloud.svc.io",
      status: 403,
      kind: "Deployment",
    });
    expect(text.join("")).not.toMatch(/stack|HTTP-Code|headers|\\\\/i);
    expect(errors).toEqual(Array(9).fill("Deployment forbidden"));
  });

  it("backs off exponentially with jitter up to its cap, and starts over once a list succeeds", async () => {
    // random() = 1: each delay is the doubled base plus its full 25%.
    expect(clock.delays).toEqual([625, 1250, 2500, 5000, 10_000, 20_000, 37_500, 37_500, 37_500]);
    cluster.deny({ rules: [] });
    await retry();
    await until(() => informers.synced, "the list");
    expect(informers.notReady()).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ level: 30, problem: "resolved" });
    expect(String(lines.at(-1)!.msg)).toMatch(/^resolved: list deployments\.cloud\.svc\.io works again/);
    // A later failure (the watch cut) waits the first delay again, and makes the set unready.
    const before = clock.delays.length;
    cluster.cutWatches("reset");
    await until(() => clock.delays.length > before, "the watch's restart");
    expect(clock.delays.at(-1)).toBe(625);
    expect(informers.synced).toBe(false);
    await retry();
    await until(() => informers.synced, "the watch again");
  });
});
