import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** A child process of the control plane, with the tail of what it wrote, for errors that say why. */
export interface Child {
  name: string;
  process: ChildProcess;
  /** Its last lines of output (bounded). */
  tail(): string;
  /** Stops it: SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const TAIL_LINES = 20;

/** Starts `command` with `args`, its output kept to its last lines. */
export function startChild(name: string, command: string, args: string[]): Child {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line.length > 500 ? `${line.slice(0, 500)}...` : line);
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("error", (error) => lines.push(`${name}: ${error.message}`));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  return {
    name,
    process: child,
    tail: () => lines.join("\n"),
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A free TCP port on 127.0.0.1 (free when asked: another process may take it before use). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port on 127.0.0.1");
  return address.port;
}

/**
 * Polls `probe` until it answers true, the child exits, or `timeoutMs` passes; the error names the
 * child and quotes its last output.
 */
export async function waitUntil(
  child: Child,
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null)
      throw new Error(`${child.name} exited (${child.process.exitCode}) before ${what}:\n${child.tail()}`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} was not ${what} after ${timeoutMs / 1000} s:\n${child.tail()}`);
}
