import * as z from "zod";
import { defineCommand } from "../lib/cli/index.ts";
import { CONFIG_FLAGS } from "../runtime/config/index.ts";

/**
 * `svc-operator run`'s definition: its flags (every one of runtime/config, with its variable)
 * and the start, loaded only when it runs (start.ts), so that no other subcommand loads the
 * operator's manager.
 */

const flags = Object.fromEntries(
  Object.entries(CONFIG_FLAGS).map(([name, spec]) => [
    name,
    {
      type: "boolean" in spec && spec.boolean ? ("boolean" as const) : ("string" as const),
      description: `${spec.description} [${spec.env}]`,
      ...("default" in spec ? { default: spec.default } : {}),
    },
  ]),
);

export const runCommand = defineCommand({
  name: "run",
  summary: "run the operator: watch the custom resources and reconcile them against the service",
  flags,
  // Flags are merged with the environment and validated by loadConfig, which names both.
  schema: z.record(z.string(), z.union([z.string(), z.boolean()]).optional()),
  run: async (options, io) => (await import("./start.ts")).runOperator(options, io),
});
