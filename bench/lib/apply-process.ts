// Applies custom resources from its own process, as kubectl or Argo CD would: the operator
// measured by a bench must not spend its event loop on the client that creates its backlog.
// Prints "ready" once loaded (so its start-up is not timed), reads one JSON line {kubeconfig,
// path, bodies, width}, POSTs every body to `path`, `width` at a time, prints "done" and exits.
import { createInterface } from "node:readline";
import * as k8s from "@kubernetes/client-node";
import { RawKube } from "../../src/runtime/client/index.ts";

interface Job {
  kubeconfig: string;
  path: string;
  bodies: unknown[];
  width: number;
}

process.stdout.write("ready\n");
const input = createInterface({ input: process.stdin });
const job = JSON.parse(await new Promise<string>((resolve) => input.once("line", resolve))) as Job;
input.close();
const kc = new k8s.KubeConfig();
kc.loadFromString(job.kubeconfig);
const raw = new RawKube(kc);
let next = 0;
await Promise.all(
  Array.from({ length: job.width }, async () => {
    while (next < job.bodies.length) await raw.call("POST", job.path, job.bodies[next++]);
  }),
);
await raw.close();
process.stdout.write("done\n");
