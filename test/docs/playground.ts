import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { devPortFlags } from "../dev/dev-args.ts";

export const ROOT = join(import.meta.dirname, "..", "..");

export interface Playground {
  /** The directory the playground was started from (its `--state-dir` is `.svc-operator` there). */
  cwd: string;
  /** What `export KUBECONFIG=...` in its banner says. */
  kubeconfig: string;
  /** Every line it printed so far (stdout is a pipe: one line per row change). */
  lines: string[];
  stop(): Promise<number | null>;
}

/** The pinned Node 24 (the `node-linux-*` dependency) when the test runs on an older one. */
function node24(): string {
  if (Number(process.versions.node.split(".")[0]) >= 24) return process.execPath;
  const pinned = join(ROOT, "node_modules", ".bin", "node");
  if (!existsSync(pinned)) throw new Error("no Node 24: run the tests with `npm test` after `npm ci`");
  return pinned;
}

/**
 * Starts `svc-operator dev --state-dir .svc-operator` (or with `flags`, in `env`) on free ports from a
 * temporary directory, as `npm run dev -- --state-dir .svc-operator` would from a checkout, and
 * resolves once every sample is Ready. Starting it elsewhere than the repository is deliberate:
 * the documented commands run from the repository, so they work only if the printed KUBECONFIG
 * is absolute.
 */
export async function startPlayground(
  timeoutMs = 90_000,
  flags: string[] = ["--state-dir", ".svc-operator"],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Playground> {
  const cwd = mkdtempSync(join(tmpdir(), "svc-operator-docs-"));
  const child: ChildProcess = spawn(
    node24(),
    [join(ROOT, "src", "cli.ts"), "dev", ...devPortFlags(), ...flags],
    {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const lines: string[] = [];
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    const code = await exited;
    rmSync(cwd, { recursive: true, force: true });
    return code;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`the playground was not Ready within ${timeoutMs / 1000} s:\n${lines.join("\n")}`),
          ),
        timeoutMs,
      );
      createInterface({ input: child.stdout! }).on("line", (line) => {
        lines.push(line);
        if (/^all \d+ samples Ready in/.test(line)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the playground exited (${code}):\n${lines.join("\n")}\n${stderr}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const kubeconfig = /export KUBECONFIG=(\S+)/.exec(lines.join("\n"))?.[1];
  if (!kubeconfig) {
    await stop();
    throw new Error(`the playground printed no KUBECONFIG:\n${lines.join("\n")}`);
  }
  return { cwd, kubeconfig, lines, stop };
}
