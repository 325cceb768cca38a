// The servers under the corpus run as real processes of the CLI (`node src/cli.ts ...`), so a
// request that kills one shows as an exit, and its memory is the process's own.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const CLI = join(import.meta.dirname, "..", "..", "src", "cli.ts");

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  out(): string;
  err(): string;
  /** Waits (polling the output) for a line matching `pattern`; fails after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  alive(): boolean;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv = process.env): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    out: () => out,
    err: () => err,
    alive: () => child.exitCode === null && child.signalCode === null,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(out) ?? pattern.exec(err);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`no ${pattern} (exit ${child.exitCode}):\n${out}\n${err}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Resident memory of a process in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) / 1024;
}

/** How much a process's resident memory may grow under the whole corpus (generous: no timing). */
export const RSS_GROWTH_LIMIT_MB = 300;

/** JSON log lines (pino or the devcluster's) at error level or above. */
export function errorLines(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .filter((l) => {
      const level = (JSON.parse(l) as { level?: number | string }).level;
      return typeof level === "number" ? level >= 50 : level === "error" || level === "fatal";
    });
}
