import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join, sep } from "node:path";

export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return undefined;
}

/**
 * The environment of a reader's shell: without the `node_modules/.bin` entries `npm test` put
 * on PATH (a reader's shell has none, so `svc-operator` alone must not work here either).
 */
export function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const path = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((d) => !d.endsWith(`${sep}node_modules${sep}.bin`))
    .join(delimiter);
  return { ...process.env, PATH: path, ...extra };
}

export interface ShellResult {
  code: number | null;
  /** stdout and stderr, interleaved as they arrived. */
  output: string;
}

const SHELL = onPath("bash") ?? "/bin/sh";

/** Runs one documented command with bash (`pipefail`: a failing kubectl before `|` fails it). */
export function runShell(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ShellResult> {
  const args = SHELL.endsWith("bash") ? ["-o", "pipefail", "-c", command] : ["-c", command];
  return new Promise((resolve) => {
    // Its own process group, so a timeout ends the command's children too (kubectl under bash).
    const child = spawn(SHELL, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    const add = (d: Buffer) => {
      output += String(d);
    };
    child.stdout.on("data", add);
    child.stderr.on("data", add);
    const timer = setTimeout(() => {
      output += `\n(killed after ${options.timeoutMs / 1000} s)`;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, options.timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
