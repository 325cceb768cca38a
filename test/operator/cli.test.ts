import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occupyPort } from "../support/ports.ts";
import { type Stack, startStack } from "./harness.ts";

const CLI = join(import.meta.dirname, "..", "..", "src", "cli.ts");
let stack: Stack;
let dir: string;

beforeAll(async () => {
  stack = await startStack();
  dir = await mkdtemp(join(tmpdir(), "svc-operator-"));
});
afterAll(async () => {
  await stack?.close();
  await rm(dir, { recursive: true, force: true });
});

function runCli(args: string[]) {
  const child = spawn(process.execPath, [CLI, "run", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on("line", (l) => lines.push(l));
  const stderr: string[] = [];
  child.stderr.on("data", (d) => stderr.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, lines, stderr, exited };
}

describe("svc-operator run", () => {
  it("starts, serves /readyz and /metrics, and exits 0 on SIGTERM", async () => {
    const kubeconfig = join(dir, "kubeconfig");
    await writeFile(kubeconfig, stack.cluster.kubeconfig);
    const run = runCli([
      "--kubeconfig",
      kubeconfig,
      "--metrics-address",
      "127.0.0.1:0",
      "--shutdown-timeout",
      "5s",
    ]);
    const deadline = Date.now() + 20_000;
    let metricsUrl: string | undefined;
    while (!metricsUrl && Date.now() < deadline) {
      for (const l of run.lines) {
        const m = /"metrics":"([^"]+)"/.exec(l);
        if (m) metricsUrl = m[1];
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(metricsUrl, run.stderr.join("")).toBeDefined();
    const base = metricsUrl!.replace(/\/metrics$/, "");
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await (await fetch(metricsUrl!)).text()).toContain("svc_operator_workqueue_depth");
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(run.lines.some((l) => l.includes("shutting down"))).toBe(true);
  });

  it.each([
    { args: ["--resync", "often"], message: "--resync (SVC_OPERATOR_RESYNC): must be a duration" },
    {
      args: ["--api-max-response-bytes", "64MB"],
      message:
        "--api-max-response-bytes (SVC_OPERATOR_API_MAX_RESPONSE_BYTES): must be a size from 1Mi to 256Mi, such as 64Mi or 512Ki (got '64MB')",
    },
  ])("a bad flag exits 2 naming the flag, the variable and the rule: $args", async ({ args, message }) => {
    const run = runCli(args);
    expect(await run.exited).toBe(2);
    expect(run.stderr.join("")).toContain(message);
  });

  it("a metrics address in use exits 2 naming --metrics-address and its variable, no stack trace", async () => {
    const kubeconfig = join(dir, "kubeconfig-metrics");
    await writeFile(kubeconfig, stack.cluster.kubeconfig);
    const blocker = await occupyPort();
    try {
      const run = runCli(["--kubeconfig", kubeconfig, "--metrics-address", `127.0.0.1:${blocker.port}`]);
      expect(await run.exited).toBe(2);
      const stderr = run.stderr.join("");
      expect(stderr).toContain(
        `svc-operator run: --metrics-address (SVC_OPERATOR_METRICS_ADDRESS): address 127.0.0.1:${blocker.port} is in use (EADDRINUSE); pick another port or 0 for a free one`,
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await blocker.close();
    }
  });

  it("a kubeconfig that is missing or not YAML exits 2 naming the flag and the file, no stack trace", async () => {
    const broken = join(dir, "broken-kubeconfig");
    await writeFile(broken, "clusters: [\n");
    for (const [file, says] of [
      [
        join(dir, "missing"),
        `--kubeconfig (KUBECONFIG): cannot read ${join(dir, "missing")}: no such file; `,
      ],
      [broken, `cannot load --kubeconfig (KUBECONFIG): ${broken}: `],
    ] as const) {
      const run = runCli(["--kubeconfig", file]);
      expect(await run.exited).toBe(2);
      const stderr = run.stderr.join("");
      expect(stderr).toContain(`svc-operator run: ${says}`);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});
