import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.ts";
import { devclusterCommand } from "../../src/devcluster/command.ts";
import { createDevCluster } from "../../src/devcluster/index.ts";
import { createCrd, eventually, GROUP, startHarness, widgetCrd } from "./helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "devcluster-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("state file", () => {
  it("survives a restart: objects, CRDs served again, resourceVersions keep growing, watches resume", async () => {
    const stateFile = join(dir, "state.json");
    const first = await startHarness({ stateFile, token: "fixed-token-0123456789", stateDebounceMs: 10 });
    await createCrd(first, widgetCrd());
    const created = (await first.custom.createNamespacedCustomObject({
      group: GROUP,
      version: "v1",
      namespace: "default",
      plural: "widgets",
      body: { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name: "kept" }, spec: { size: 4 } },
    })) as k8s.KubernetesObject;
    await first.core.createNamespacedSecret({
      namespace: "default",
      body: { metadata: { name: "s" }, stringData: { a: "b" } },
    });
    await eventually(async () => (await readFile(stateFile, "utf8")).includes('"kept"'));
    const lastRv = Number(created.metadata!.resourceVersion);
    await first.cluster.close();
    // Only the state file is left behind: the temporary files were renamed over it.
    expect((await readdir(dir)).filter((f) => f.startsWith("state.json"))).toEqual(["state.json"]);
    // It holds the token and the TLS key: owner-only.
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);

    const second = await startHarness({ stateFile, token: "fixed-token-0123456789" });
    try {
      const kept = (await second.custom.getNamespacedCustomObject({
        group: GROUP,
        version: "v1",
        namespace: "default",
        plural: "widgets",
        name: "kept",
      })) as k8s.KubernetesObject & { spec: { size: number } };
      expect(kept.spec.size).toBe(4);
      expect(kept.metadata?.uid).toBe(created.metadata?.uid);
      const secret = await second.core.readNamespacedSecret({ namespace: "default", name: "s" });
      expect(secret.data?.a).toBe(Buffer.from("b").toString("base64"));
      const updated = (await second.custom.patchNamespacedCustomObject(
        {
          group: GROUP,
          version: "v1",
          namespace: "default",
          plural: "widgets",
          name: "kept",
          body: { spec: { size: 5 } },
        },
        k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
      )) as k8s.KubernetesObject;
      expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(lastRv);
      // A watch from the last resourceVersion before the restart is still valid.
      const res = await second.http(
        `/apis/${GROUP}/v1/namespaces/default/widgets?watch=true&resourceVersion=${lastRv}&timeoutSeconds=1`,
      );
      const lines = (await res.text())
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.type)).toEqual(["MODIFIED"]);
    } finally {
      await second.cluster.close();
    }
  });

  it("keeps the token and TLS certificate, so a kubeconfig written before a restart still works", async () => {
    const stateFile = join(dir, "tls-state.json");
    const first = await createDevCluster({ stateFile, tls: true, port: 0 });
    expect(first.url).toMatch(/^https:\/\//);
    await first.close();
    const second = await createDevCluster({ stateFile, tls: true, port: Number(new URL(first.url).port) });
    try {
      expect(second.token).toBe(first.token);
      expect(second.caCert).toBe(first.caCert);
      const kc = new k8s.KubeConfig();
      kc.loadFromString(first.kubeconfig);
      const namespaces = await kc.makeApiClient(k8s.CoreV1Api).listNamespace();
      expect(namespaces.items.length).toBeGreaterThan(0);
      const noToken = await fetch(`${second.url}/api/v1/namespaces`).catch((e: unknown) => e);
      // Without the CA, the self-signed certificate is refused; with it and no token, 401.
      expect(noToken).toBeInstanceOf(Error);
    } finally {
      await second.close();
    }
  });

  it("sends 410 to a watch from a resourceVersion the restored store never reached (lost writes)", async () => {
    const h = await startHarness();
    try {
      const list = (await (await h.http("/api/v1/namespaces")).json()) as {
        metadata: { resourceVersion: string };
      };
      const current = Number(list.metadata.resourceVersion);
      const res = await h.http(`/api/v1/namespaces?watch=true&resourceVersion=${current + 100}`);
      const [event] = (await res.text())
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(event).toMatchObject({
        type: "ERROR",
        object: { kind: "Status", code: 410, reason: "Expired" },
      });
    } finally {
      await h.cluster.close();
    }
  });

  it("refuses to start on a file that is not a state file, naming it", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, "{ nope");
    await expect(createDevCluster({ stateFile: bad })).rejects.toThrow(`state file ${bad} is not valid JSON`);
    await writeFile(bad, JSON.stringify({ hello: 1 }));
    await expect(createDevCluster({ stateFile: bad })).rejects.toThrow("is not a devcluster state file");
  });
});

describe("svc-operator devcluster", () => {
  it("starts, writes a kubeconfig that client-node can use, prints the token and how to use it", async () => {
    const kubeconfig = join(dir, "kube", "config");
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const out: string[] = [];
    const err: string[] = [];
    const command = devclusterCommand(() => stopped);
    const running = main(
      ["devcluster", "--port", "0", "--kubeconfig", kubeconfig],
      { out: (l) => out.push(l), err: (l) => err.push(l), env: {} },
      [command],
    );
    await eventually(() => out.some((l) => l.startsWith("token: ")));
    expect(out.join("\n")).toContain(`export KUBECONFIG=${kubeconfig}`);
    expect(out.join("\n")).toContain("/__dev/faults/cut-watches");
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    const token = out.find((l) => l.startsWith("token: "))!.slice("token: ".length);
    expect(kc.getCurrentUser()?.token).toBe(token);
    const namespaces = await kc.makeApiClient(k8s.CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain("default");
    stop();
    expect(await running).toBe(0);
  });

  it("names the bad flag", async () => {
    const err: string[] = [];
    const code = await main(
      ["devcluster", "--port", "99999"],
      { out: () => {}, err: (l) => err.push(l), env: {} },
      [devclusterCommand(async () => {})],
    );
    expect(code).toBe(2);
    expect(err.join("\n")).toContain("--port: must be between 0 and 65535");
  });
});
