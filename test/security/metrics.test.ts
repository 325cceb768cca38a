// Issue 22 item 1: the operator's metrics and health server, in a real `svc-operator run` process,
// answers the hostile corpus with a 4xx or a closed connection (`GET //` used to kill the process),
// keeps serving /metrics and the probes, and stays within its memory bound.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../operator/harness.ts";
import { type Outcome, sendCorpus, slowHeaders, type Target, unacceptable } from "./corpus.ts";
import { type CliProcess, RSS_GROWTH_LIMIT_MB, rssMb, spawnCli } from "./processes.ts";

let stack: Stack | undefined;
let proc: CliProcess | undefined;
const dir = await mkdtemp(join(tmpdir(), "svc-operator-security-"));
afterAll(async () => {
  await proc?.stop();
  await stack?.close();
  await rm(dir, { recursive: true, force: true });
});

async function waitReady(base: string): Promise<void> {
  for (let i = 0; i < 600 && (await fetch(`${base}/readyz`)).status !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const statusOf = (outcomes: Outcome[], name: string) => outcomes.find((o) => o.name === name)?.status;

describe("the operator's metrics server under the hostile corpus", () => {
  it("answers 4xx or closes, keeps serving, and its memory stays bounded", { timeout: 300_000 }, async () => {
    // A devcluster with the CRDs installed, so the operator's caches sync and /readyz is 200.
    stack = await startStack();
    const kubeconfig = join(dir, "kubeconfig");
    await writeFile(kubeconfig, stack.cluster.kubeconfig, { mode: 0o600 });
    proc = spawnCli(["run", "--kubeconfig", kubeconfig, "--metrics-address", "127.0.0.1:0"]);
    const [, metricsUrl] = await proc.waitFor(/"metrics":"([^"]+)"/);
    const base = metricsUrl!.replace(/\/metrics$/, "");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await waitReady(base);
    const before = rssMb(proc.pid);

    const target: Target = {
      name: "metrics",
      host: new URL(base).hostname,
      port: Number(new URL(base).port),
      bodies: [{ method: "POST", path: "/metrics" }],
    };
    const slow = slowHeaders(target);
    const outcomes = await sendCorpus([target]);
    outcomes.push(await slow);

    expect(unacceptable(outcomes)).toEqual([]);
    // The corpus reached what it aims at (so the check above cannot pass on a server that answers nothing).
    expect(statusOf(outcomes, "metrics GET //")).toBe(404);
    expect(statusOf(outcomes, "metrics absolute-form target")).toBe(404);
    expect(statusOf(outcomes, "metrics asterisk target")).toBe(400);
    expect(statusOf(outcomes, "metrics 64 KB path")).toBe(431);
    expect(statusOf(outcomes, "metrics POST /metrics 100k-entry form")).toBe(405);
    expect([408, undefined]).toContain(statusOf(outcomes, "metrics slow headers"));

    expect(proc.alive()).toBe(true);
    expect(await (await fetch(metricsUrl!)).text()).toContain("svc_operator_workqueue_depth");
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(rssMb(proc.pid) - before).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    expect(proc.out()).not.toContain("metrics request failed");
  });
});
