import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { shareDispatchers } from "./kubeconfig.ts";

describe("shareDispatchers", () => {
  let connections = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ kind: "NamespaceList", apiVersion: "v1", metadata: {}, items: [] }));
    });
  });
  server.on("connection", () => connections++);
  const listening = new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  function kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    const port = (server.address() as AddressInfo).port;
    kc.loadFromOptions({
      clusters: [{ name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    return kc;
  }

  it("calls share keep-alive connections instead of one connection per call", async () => {
    await listening;
    const plain = kubeConfig().makeApiClient(CoreV1Api);
    connections = 0;
    for (let i = 0; i < 10; i++) await plain.listNamespace();
    const unshared = connections;
    const shared = shareDispatchers(kubeConfig()).makeApiClient(CoreV1Api);
    connections = 0;
    for (let i = 0; i < 10; i++) await shared.listNamespace();
    expect(connections).toBeLessThanOrEqual(2);
    // Documents the client-node behaviour worked around (a new Agent per call).
    expect(unshared).toBe(10);
  });
});
