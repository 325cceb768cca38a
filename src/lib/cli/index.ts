/**
 * The CLI framework every subcommand is written in: a command's flags and their zod schema,
 * parsing argv into typed options with errors that name the flag, help text, the shared flag
 * helpers, the usage error a server that cannot bind becomes, and the check of every port a
 * command listens on before it starts anything. Owns no subcommand: each part
 * of the product defines its own, and src/commands.ts lists them.
 */
export {
  type Command,
  type CommandIo,
  commandHelp,
  defineCommand,
  type FlagSpec,
  flag,
  parseFlags,
  UsageError,
} from "./command.ts";
export { type ListenFlag, listenError } from "./listen-error.ts";
export { checkPorts } from "./port-check.ts";
