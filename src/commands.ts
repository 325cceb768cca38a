import { dev } from "./dev/command.ts";
import { devcluster } from "./devcluster/command.ts";
import { exportCommand } from "./export/command.ts";
import type { Command } from "./lib/cli/index.ts";
import { planCommand } from "./plan/command.ts";
import { runCommand } from "./run/command.ts";
import { simulatorCommand } from "./simulator/command.ts";
import { traceCommand } from "./trace/command.ts";

// Every subcommand of the product, in the order `svc-operator --help` lists them. Each is its
// folder's command.ts, the definition alone: what a subcommand runs is loaded when it runs.
// biome-ignore lint/suspicious/noExplicitAny: commands carry their own option types
export const commands: Command<any>[] = [
  runCommand,
  simulatorCommand,
  devcluster,
  dev,
  exportCommand,
  planCommand,
  traceCommand,
];
