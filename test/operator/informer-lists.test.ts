import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { InformerSet, LIST_PAGES_AT_ONCE } from "../../src/runtime/cache/index.ts";
import { RawKube } from "../../src/runtime/client/index.ts";

const KINDS = [
  { kind: "Deployment", plural: "deployments" },
  { kind: "Network", plural: "networks" },
  { kind: "Subnet", plural: "subnets" },
  { kind: "Volume", plural: "volumes" },
  { kind: "RouteTable", plural: "routetables" },
];

describe("InformerSet's initial lists", () => {
  let cluster: DevCluster;
  let raw: RawKube;
  let informers: InformerSet | undefined;

  beforeAll(async () => {
    cluster = await createDevCluster();
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    raw = new RawKube(kc);
    for (const { kind } of KINDS) {
      const file = join(import.meta.dirname, "../../crds", `${kind.toLowerCase()}.yaml`);
      await raw.call(
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        parse(await readFile(file, "utf8")),
      );
    }
  });

  afterAll(async () => {
    await informers?.stop();
    await raw?.close();
    await cluster?.close();
  });

  it("read a few pages at a time across the kinds, not a page of every kind at once", async () => {
    let inFlight = 0;
    let most = 0;
    const lists: string[] = [];
    // Each list page is answered 30 ms late: the informers' reads overlap as far as they may.
    const kube = {
      call: async <T>(method: Parameters<RawKube["call"]>[0], path: string, body?: unknown) => {
        lists.push(path);
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          await new Promise((r) => setTimeout(r, 30));
          return await raw.call<T>(method, path, body);
        } finally {
          inFlight--;
        }
      },
      stream: raw.stream.bind(raw),
    } as unknown as Pick<RawKube, "call" | "stream">;
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    informers = new InformerSet({
      kubeConfig: kc,
      kube,
      kinds: KINDS,
      namespaces: [],
      handlers: { added: () => {}, updated: () => {}, deleted: () => {} },
      log: pino({ level: "silent" }),
    });
    await informers.start();
    expect(informers.synced).toBe(true);
    expect(lists).toHaveLength(KINDS.length);
    expect(LIST_PAGES_AT_ONCE).toBe(2);
    expect(most).toBe(LIST_PAGES_AT_ONCE);
  });
});
