#!/usr/bin/env node
import pkg from "../package.json" with { type: "json" };
import { commands } from "./commands.ts";
import { type Command, type CommandIo, commandHelp, parseFlags, UsageError } from "./lib/cli/index.ts";

function mainHelp(list: Command[]): string {
  const width = Math.max(...list.map((c) => c.name.length)) + 2;
  return [
    "Usage: svc-operator <command> [flags]",
    "",
    "Kubernetes operator for the cloud-management service.",
    "",
    "Commands:",
    ...list.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "Run 'svc-operator <command> --help' for a command's flags, 'svc-operator --version' for the version.",
  ].join("\n");
}

export async function main(argv: string[], io: CommandIo, list: Command[] = commands): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(mainHelp(list));
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "version") {
    // The Node version too: npm scripts run on the pinned one, a bare shell may not.
    io.out(`svc-operator ${pkg.version} (node ${process.version})`);
    return 0;
  }
  const command = list.find((c) => c.name === name);
  if (!command) {
    io.err(`svc-operator: unknown command '${name}'. Commands: ${list.map((c) => c.name).join(", ")}`);
    return 2;
  }
  let options: unknown;
  try {
    options = parseFlags(command, rest);
  } catch (error) {
    if (error instanceof UsageError) {
      // One line, as any other failure: what is wrong, and where the flags are listed.
      io.err(
        `svc-operator ${command.name}: ${error.message} (run 'svc-operator ${command.name} --help' for usage)`,
      );
      return command.usageExitCode ?? 2;
    }
    throw error;
  }
  if (options === "help") {
    io.out(commandHelp(command));
    return 0;
  }
  try {
    return await command.run(options, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`svc-operator ${command.name}: ${error.message}`);
      return command.usageExitCode ?? 2;
    }
    throw error;
  }
}

/** Runs the command line of this process and sets its exit code. */
export function runCli(): void {
  const io: CommandIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    tty: { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true },
    errRaw: (text) => process.stderr.write(text),
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `svc-operator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

// import.meta.main, not a comparison with argv[1]: npm's bin is a symlink, and the bundle's
// entry is this module's code.
if (import.meta.main) runCli();
