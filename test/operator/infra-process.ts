// A devcluster and/or a simulator in their own process (benchmarks: the operator measured in its
// process gets its own core, and the service's simulated latency does not queue behind the
// devcluster's work). INFRA=cluster or INFRA=simulator starts one of them, unset both. Prints
// one JSON line with what it started ({url, token, kubeconfig} and/or {simUrl}) and runs until
// stdin closes.
import { createDevCluster } from "../../src/devcluster/index.ts";
import { createSimulator } from "../../src/simulator/server.ts";

const part = process.env.INFRA;
const cluster = part === "simulator" ? undefined : await createDevCluster();
const sim =
  part === "cluster"
    ? undefined
    : await createSimulator({ latencyMs: Number(process.env.SIM_LATENCY_MS ?? 0) });
process.stdout.write(
  `${JSON.stringify({ ...(cluster ? { url: cluster.url, token: cluster.token, kubeconfig: cluster.kubeconfig } : {}), ...(sim ? { simUrl: sim.url } : {}) })}\n`,
);
process.stdin.resume();
process.stdin.on("end", async () => {
  await sim?.close();
  await cluster?.close();
  process.exit(0);
});
