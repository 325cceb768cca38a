import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { devPortFlags } from "./dev-args.ts";

export const ROOT = join(import.meta.dirname, "..", "..");

/** Every child `runDev` started, for the test file's afterAll to kill whatever is left. */
export const children: ChildProcess[] = [];

export interface Run {
  lines: string[];
  /** Latest plain line per `Kind/name`. */
  rows: Map<string, { ready: string; href: string }>;
  code: number | null;
}

/**
 * Runs `svc-operator dev` as a child process (stdout is a pipe: plain lines), waits for the
 * "all N samples Ready" line, sends SIGINT (Ctrl-C) and waits for a clean exit.
 */
export async function runDev(
  extra: string[],
  until = /^all \d+ samples Ready in [\d.]+ s/,
  whileRunning: (run: Run) => Promise<void> = async () => {},
): Promise<Run> {
  // Node 24 runs the .ts sources directly; under an older node go through the npm-provided one.
  const major = Number(process.versions.node.split(".")[0]);
  const [cmd, args] =
    major >= 24 ? [process.execPath, ["src/cli.ts"]] : ["npm", ["exec", "--", "node", "src/cli.ts"]];
  const child = spawn(cmd, [...args, "dev", ...devPortFlags(), ...extra], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const run: Run = { lines: [], rows: new Map(), code: null };
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on("line", (line) => {
      run.lines.push(line);
      const m = /^(\S+\/\S+) Ready=(\S+) Synced=\S+ reason=\S+ href=(\S+)$/.exec(line);
      if (m) run.rows.set(m[1]!, { ready: m[2]!, href: m[3]! });
      if (until.test(line)) resolve();
    });
    void exited.then((code) =>
      reject(new Error(`dev exited early (${code}):\n${run.lines.join("\n")}\n${stderr}`)),
    );
    setTimeout(
      () => reject(new Error(`no line matching ${until} within 90 s:\n${run.lines.join("\n")}\n${stderr}`)),
      90_000,
    );
  });
  try {
    await ready;
    await whileRunning(run);
  } finally {
    child.kill("SIGINT");
  }
  run.code = await exited;
  return run;
}
