import { parseArgs } from "node:util";
import * as z from "zod";

/** One CLI flag: how it is parsed (node's parseArgs) and what it means (help text). */
export interface FlagSpec {
  type: "string" | "boolean";
  description: string;
  /** Shown in help; the real default lives in the zod schema. */
  default?: string;
  multiple?: boolean;
  /** A one-letter alias (`-f` for `--filename`). */
  short?: string;
}

/**
 * A subcommand. Each part of the product (simulator, devcluster, operator, dev loop)
 * exports one of these from its own folder and `src/cli.ts` lists them.
 */
export interface Command<S extends z.ZodType = z.ZodType> {
  name: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /** Validates the raw parsed flags (strings and booleans) into typed options. */
  schema: S;
  /**
   * The positional arguments it takes, for help (`KIND/NAME`); they reach the schema as `args`.
   * None when unset: a positional argument is then a usage error.
   */
  args?: string;
  /** The exit code of a usage error (default 2; kubectl-like commands use 1). */
  usageExitCode?: number;
  /** Resolves with the process exit code once the command is finished. */
  run(options: z.output<S>, io: CommandIo): Promise<number>;
}

export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Which of stdout and stderr are terminals (a table, a progress line); absent: neither. */
  tty?: { out: boolean; err: boolean };
  /** Writes to stderr as is, no newline added: a progress line redrawn in place on a terminal. */
  errRaw?: (text: string) => void;
  /** All of standard input (`-f -`). */
  stdin?: () => Promise<string>;
}

export function defineCommand<S extends z.ZodType>(command: Command<S>): Command<S> {
  return command;
}

/** A bad flag: the CLI prints the message and exits with code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function commandHelp(command: Command): string {
  const args = command.args ? ` ${command.args}` : "";
  const lines = [`Usage: svc-operator ${command.name}${args} [flags]`, "", command.summary, "", "Flags:"];
  const entries = Object.entries(command.flags).map(([name, spec]) => {
    const long = spec.short ? `-${spec.short}, --${name}` : `--${name}`;
    const left = spec.type === "boolean" ? long : `${long} <value>`;
    const def = spec.default === undefined ? "" : ` (default ${spec.default})`;
    return [left, `${spec.description}${def}`] as const;
  });
  entries.push(["--help", "show this help"]);
  const width = Math.max(...entries.map(([left]) => left.length)) + 2;
  for (const [left, right] of entries) lines.push(`  ${left.padEnd(width)}${right}`);
  return lines.join("\n");
}

/** Formats zod issues as `--flag: message` lines, naming the flag and the rule. */
export function formatFlagIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const flag = issue.path.length > 0 ? `--${issue.path.join(".")}` : "flags";
      return `${flag}: ${issue.message}`;
    })
    .join("\n");
}

/** Parses argv for one command; throws UsageError with a message naming the bad flag. */
export function parseFlags<S extends z.ZodType>(command: Command<S>, argv: string[]): z.output<S> | "help" {
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }> = {
    help: { type: "boolean" },
  };
  for (const [name, spec] of Object.entries(command.flags)) {
    options[name] = {
      type: spec.type,
      ...(spec.multiple ? { multiple: true } : {}),
      ...(spec.short ? { short: spec.short } : {}),
    };
  }
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: command.args !== undefined,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  if (command.args !== undefined) values.args = positionals;
  const result = command.schema.safeParse(values);
  if (!result.success) throw new UsageError(formatFlagIssues(result.error));
  return result.data;
}

/** zod helpers shared by commands: flags arrive as strings. */
export const flag = {
  port: (fallback: number) =>
    z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 65535")
      .max(65535, "must be between 0 and 65535")
      .default(fallback),
  nonNegativeInt: (fallback: number) =>
    z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be 0 or more")
      .default(fallback),
  logLevel: () =>
    z
      .enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"], {
        error: "must be one of trace, debug, info, warn, error, fatal, silent",
      })
      .default("info"),
  host: (fallback = "127.0.0.1") => z.string().min(1, "must not be empty").default(fallback),
};
