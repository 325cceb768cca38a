import { createServer, request } from "node:http";
import { writeFileSync } from "node:fs";
import { createDevCluster } from "../index.ts";
import { openApiV2, openApiV3GroupVersion, openApiV3Index } from "../openapi.ts";
import { toTable } from "../table.ts";
const dc = await createDevCluster({
  port: 0,
  presenter: { openApiV2, openApiV3Index, openApiV3GroupVersion, toTable: (v, o, l) => toTable(v, o, l) },
});
const target = new URL(dc.url);
// kubectl does not send the bearer token over plain HTTP: a header-adding proxy for this check only.
const proxy = createServer((req, res) => {
  const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${dc.token}` } }, (r) => {
    res.writeHead(r.statusCode ?? 500, r.headers);
    r.pipe(res);
  });
  req.pipe(up);
});
proxy.listen(0, "127.0.0.1", () => {
  const port = (proxy.address() as { port: number }).port;
  writeFileSync("/tmp/dc-e2e/kubeconfig", `apiVersion: v1\nkind: Config\nclusters:\n- name: d\n  cluster: {server: "http://127.0.0.1:${port}"}\nusers:\n- name: d\n  user: {}\ncontexts:\n- name: d\n  context: {cluster: d, user: d, namespace: default}\ncurrent-context: d\n`);
  console.log("READY", port);
});
