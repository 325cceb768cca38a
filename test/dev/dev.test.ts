import { execFile, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { occupyPort } from "../support/ports.ts";
import { simHook } from "../support/sim-hook.ts";
import { devPortFlags } from "./dev-args.ts";
import { children, ROOT, type Run, runDev } from "./run-dev.ts";

const stateDir = mkdtempSync(join(tmpdir(), "svc-operator-dev-test-"));
const exec = promisify(execFile);
const kubectl = (process.env.PATH ?? "")
  .split(delimiter)
  .map((d) => join(d, "kubectl"))
  .find((p) => existsSync(p));
let kubectlOutput = "";
let kubectlReapply = { stdout: "", stderr: "" };

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(stateDir, { recursive: true, force: true });
});

/** Every document of deploy/samples as `Kind/name`; `all` false: the custom resources only (not a ConfigMap beside them). */
function sampleKeys(all = false): string[] {
  return readdirSync(join(ROOT, "deploy", "samples"))
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(ROOT, "deploy", "samples", f), "utf8"))
        .map((d) => d.toJS() as { apiVersion: string; kind: string; metadata: { name: string } } | null)
        .filter((d) => d !== null && (all || d.apiVersion.startsWith("cloud.svc.io/")))
        .map((d) => d!)
        .map((d) => `${d.kind}/${d.metadata.name}`),
    );
}

describe("svc-operator dev (as a child process)", () => {
  let first: Run;

  it("brings every sample to Ready, prints the kubectl lines and the time, stops cleanly on SIGINT", {
    timeout: 120_000,
  }, async () => {
    first = await runDev(["--state-dir", stateDir], undefined, async (run) => {
      // The simulator's test hooks open with the token dev wrote to its state directory.
      const [, simUrl, tokenFile] =
        /simulator test hooks: (\S+)\/__sim\/\.\.\., header X-Simulator-Token from (\S+)/.exec(
          run.lines.join("\n"),
        )!;
      expect(tokenFile).toBe(join(stateDir, "simulator-token"));
      const hookToken = readFileSync(tokenFile!, "utf8").trim();
      expect((await simHook({ url: simUrl!, hookToken }, "stats")).status).toBe(200);
      expect((await fetch(`${simUrl}/__sim/stats`)).status).toBe(401);
      if (!kubectl) return;
      // The printed command lines work as printed, with the written kubeconfig.
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(run.lines.join("\n"))![1]!;
      const { stdout } = await exec(kubectl, ["get", "svccloud", "-n", "demo", "--no-headers"], {
        env: { ...process.env, KUBECONFIG: kubeconfig },
      });
      kubectlOutput = stdout;
      // Re-applying the samples as the banner suggests: silent, nothing to change.
      const reapplied = await exec(kubectl, ["apply", "-n", "demo", "-f", join(ROOT, "deploy", "samples")], {
        env: { ...process.env, KUBECONFIG: kubeconfig },
      });
      kubectlReapply = reapplied;
      await exec(
        kubectl,
        ["wait", "--for=condition=Ready", "svccloud", "--all", "-n", "demo", "--timeout=10s"],
        {
          env: { ...process.env, KUBECONFIG: kubeconfig },
        },
      );
    });
    expect(first.code).toBe(0);
    const out = first.lines.join("\n");
    expect(out).toContain(`export KUBECONFIG=${join(stateDir, "kubeconfig")}`);
    expect(out).toMatch(/kubectl get svccloud -n demo/);
    expect(out).toMatch(/^all (\d+) samples Ready in [\d.]+ s \(from process start\)$/m);
    expect(out).toMatch(/\nstopped$/);
    const samples = sampleKeys();
    expect(Number(/^all (\d+) samples/m.exec(out)![1])).toBe(samples.length);
    for (const key of samples) {
      expect(first.rows.get(key)?.ready, key).toBe("True");
      expect(first.rows.get(key)?.href, key).toMatch(/^\/api\//);
    }
    expect(first.rows.get("Account/default")?.ready).toBe("True");
    // Credentials and state are readable by their owner only.
    for (const file of ["simulator.json", "simulator-token", "devcluster.json", "kubeconfig", "demo.yaml"])
      expect(statSync(join(stateDir, file)).mode & 0o777, file).toBe(0o600);
    if (kubectl) {
      // one line per sample plus the Account (all in category svccloud)
      expect(kubectlOutput.trim().split("\n")).toHaveLength(samples.length + 1);
      expect(kubectlOutput).toContain("deployment.cloud.svc.io/web");
      expect(kubectlReapply.stderr).toBe("");
      const lines = kubectlReapply.stdout.trim().split("\n");
      expect(lines).toHaveLength(sampleKeys(true).length);
      for (const line of lines) expect(line).toMatch(/ unchanged$/);
    }
  });

  it("a second run with --state-dir finds the same objects: same hrefs, no duplicates", {
    timeout: 120_000,
  }, async () => {
    const second = await runDev(["--state-dir", stateDir]);
    expect(second.code).toBe(0);
    for (const key of sampleKeys()) expect(second.rows.get(key)?.href, key).toBe(first.rows.get(key)?.href);
    const state = JSON.parse(readFileSync(join(stateDir, "simulator.json"), "utf8")) as Record<
      string,
      { id: string; name?: string; cidr_block?: string; device?: string }[]
    >;
    const count = (
      collection: string,
      pick: (o: { name?: string; cidr_block?: string; device?: string }) => boolean,
    ) => (state[collection] ?? []).filter(pick).length;
    expect(count("deployments", (o) => o.name === "web")).toBe(1);
    expect(count("networks", (o) => o.cidr_block === "10.10.0.0/16")).toBe(1);
    expect(count("subnets", (o) => o.cidr_block?.startsWith("10.10.") === true)).toBe(2);
    expect(count("network_gateways", (o) => o.name === "main-igw")).toBe(1);
    expect(count("routes", () => true)).toBe(2);
    expect(count("volumes", (o) => o.name === "data")).toBe(1);
    expect(count("recurring_volume_attachments", (o) => o.device === "/dev/xvdb")).toBe(1);
  });

  it("--no-samples applies none: only the Account, which gets Ready", { timeout: 60_000 }, async () => {
    const run = await runDev(["--no-samples"], /^Account\/default Ready=True /);
    expect(run.code).toBe(0);
    expect([...run.rows.keys()]).toEqual(["Account/default"]);
    // No samples to apply again; bringing demo back after its deletion is the demo file alone.
    const applies = run.lines.filter((l) => l.includes("kubectl apply"));
    expect(applies).toEqual([expect.stringMatching(/^ {2}kubectl apply -n demo -f \S+\/demo\.yaml$/)]);
  });

  const script = (process.env.PATH ?? "")
    .split(delimiter)
    .map((d) => join(d, "script"))
    .find((p) => existsSync(p));

  it.skipIf(!script || Number(process.versions.node.split(".")[0]) < 24)(
    "on a terminal (a pty from `script`) redraws the table in place and stops on a real Ctrl-C",
    { timeout: 120_000 },
    async () => {
      // `exec`: script runs `$SHELL -c`, and dash (CI's /bin/sh when SHELL is unset) does not exec a
      // lone command, so the Ctrl-C would kill the shell (exit 130) instead of reaching node.
      const command = ["exec", process.execPath, "src/cli.ts", "dev", ...devPortFlags()].join(" ");
      const child = spawn(script!, ["-qfec", command, "/dev/null"], {
        cwd: ROOT,
        stdio: ["pipe", "pipe", "pipe"],
      });
      children.push(child);
      let out = "";
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`not Ready on the terminal within 90 s:\n${out}`)),
          90_000,
        );
        child.stdout!.on("data", (d) => {
          out += String(d);
          if (/all \d+ samples Ready in/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      child.stdin!.write("\x03"); // Ctrl-C through the terminal: SIGINT to the foreground process
      expect(await exited).toBe(0);
      const rows = sampleKeys().length + 2; // header + Account + samples
      // each redraw moves the cursor up over the previous frame (table, blank line, status line)
      expect(out).toContain(`\x1b[${rows + 2}A`);
      expect(out).toContain("\x1b[2KKIND");
      expect(out).not.toMatch(/^Deployment\/web Ready=/m);
      expect(out).toMatch(/stopped\r?\n?$/);
    },
  );

  it("a sample the schema refuses stops it with exit code 2 naming file, document and field, no stack trace", {
    timeout: 60_000,
  }, async () => {
    const samples = mkdtempSync(join(tmpdir(), "svc-operator-dev-bad-samples-"));
    try {
      cpSync(join(ROOT, "deploy", "samples"), samples, { recursive: true });
      const file = join(samples, "10-network.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("cidrBlock: 10.10.2.0/24", "cidrBlock: not-a-cidr"),
      );
      const child = spawn(process.execPath, ["src/cli.ts", "dev", ...devPortFlags(), "--samples", samples], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let stderr = "";
      child.stderr!.on("data", (d) => {
        stderr += String(d);
      });
      const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
      expect(code).toBe(2);
      expect(stderr).toMatch(/svc-operator dev: the cluster refused 1 of \d+ samples, so none was applied/);
      expect(stderr).toContain(
        `${file} (document 5, Subnet/main-b): spec.cidrBlock: Invalid value: "string": must be an IPv4 CIDR block such as 10.0.0.0/16`,
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(samples, { recursive: true, force: true });
    }
  });

  it("several ports in use: one run names every one of them, exit code 2, nothing started", {
    timeout: 60_000,
  }, async () => {
    const blockers = [await occupyPort(), await occupyPort(), await occupyPort()];
    const [cluster, simulator, metrics] = blockers.map((b) => String(b.port)) as [string, string, string];
    try {
      const child = spawn(
        process.execPath,
        ["src/cli.ts", "dev", ...devPortFlags({ cluster, simulator, metrics })],
        { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
      );
      children.push(child);
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d) => {
        stdout += String(d);
      });
      child.stderr!.on("data", (d) => {
        stderr += String(d);
      });
      const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
      expect(code).toBe(2);
      expect(stderr).toContain("svc-operator dev: 3 of the ports cannot be used:\n");
      for (const [flag, port] of [
        ["--cluster-port", cluster],
        ["--simulator-port", simulator],
        ["--metrics-port", metrics],
      ])
        expect(stderr).toContain(
          `  ${flag} ${port}: address 127.0.0.1:${port} is in use (EADDRINUSE); pick another port or 0 for a free one\n`,
        );
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout).toBe("");
    } finally {
      for (const b of blockers) await b.close();
    }
  });

  it.each([
    ["--cluster-port", "cluster"],
    ["--metrics-port", "metrics"],
  ] as const)(
    "a port in use on %s stops it with exit code 2 naming that flag, leaving nothing running",
    {
      timeout: 60_000,
    },
    async (flag, which) => {
      const blocker = await occupyPort();
      try {
        const child = spawn(
          process.execPath,
          ["src/cli.ts", "dev", ...devPortFlags({ [which]: String(blocker.port) })],
          { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
        );
        children.push(child);
        let stderr = "";
        child.stderr!.on("data", (d) => {
          stderr += String(d);
        });
        // The exit itself shows nothing was left running: an open server would keep the process alive.
        const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
        expect(code).toBe(2);
        expect(stderr).toContain(
          `svc-operator dev: ${flag} ${blocker.port}: address 127.0.0.1:${blocker.port} is in use (EADDRINUSE); pick another port or 0 for a free one`,
        );
        expect(stderr).not.toMatch(/\n\s+at /);
      } finally {
        await blocker.close();
      }
    },
  );
});
