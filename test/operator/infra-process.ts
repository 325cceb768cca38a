// A devcluster and a simulator in their own process (benchmarks: the operator measured
// in its process gets its own core). Prints one JSON line {url, token, kubeconfig, simUrl}
// and runs until stdin closes.
import { createDevCluster } from "../../src/devcluster/index.ts";
import { createSimulator } from "../../src/simulator/server.ts";

const cluster = await createDevCluster();
const sim = await createSimulator({ latencyMs: Number(process.env.SIM_LATENCY_MS ?? 0) });
process.stdout.write(
  `${JSON.stringify({ url: cluster.url, token: cluster.token, kubeconfig: cluster.kubeconfig, simUrl: sim.url })}\n`,
);
process.stdin.resume();
process.stdin.on("end", async () => {
  await sim.close();
  await cluster.close();
  process.exit(0);
});
