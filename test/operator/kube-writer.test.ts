import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError, GoneError } from "../../src/runtime/kube.ts";
import { KubeApiWriter } from "../../src/runtime/kube-api.ts";

describe("KubeApiWriter.patchUnread", () => {
  let server: Server;
  let writer: KubeApiWriter;
  const seen: { url: string; type: string | undefined; body: string }[] = [];
  const ref = (name: string) => ({ kind: "Network", plural: "networks", namespace: "team-a", name });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ url: req.url!, type: req.headers["content-type"], body });
        const code = req.url!.includes("/gone") ? 404 : req.url!.includes("/raced") ? 409 : 200;
        res.writeHead(code, { "content-type": "application/json" });
        // An answer that is not JSON: were it parsed, the write would fail.
        res.end(code === 200 ? "{not json" : JSON.stringify({ kind: "Status", code }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: "c",
          server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          skipTLSVerify: true,
        },
      ],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    writer = new KubeApiWriter(kc);
  });
  afterAll(async () => {
    await writer.close();
    await new Promise((r) => server.close(r));
  });

  it("merge-patches status or metadata without reading the answer", async () => {
    await writer.patchUnread(ref("n1"), { status: { href: "/api/networks/1" } });
    await writer.patchUnread(ref("n1"), { metadata: { annotations: { a: null } } });
    expect(seen.slice(-2)).toEqual([
      {
        url: "/apis/cloud.svc.io/v1alpha1/namespaces/team-a/networks/n1/status",
        type: "application/merge-patch+json",
        body: JSON.stringify({ status: { href: "/api/networks/1" } }),
      },
      {
        url: "/apis/cloud.svc.io/v1alpha1/namespaces/team-a/networks/n1",
        type: "application/merge-patch+json",
        body: JSON.stringify({ metadata: { annotations: { a: null } } }),
      },
    ]);
  });

  it("404 is GoneError, 409 ConflictError, as for the other writes", async () => {
    await expect(writer.patchUnread(ref("gone"), { status: {} })).rejects.toBeInstanceOf(GoneError);
    await expect(writer.patchUnread(ref("raced"), { status: {} })).rejects.toBeInstanceOf(ConflictError);
  });
});
