import { pino } from "pino";
import * as z from "zod";
import {
  type CommandIo,
  checkPorts,
  defineCommand,
  flag,
  listenError,
  UsageError,
} from "../lib/cli/index.ts";
import type { Simulator } from "./server.ts";

const schema = z
  .object({
    host: flag.host(),
    port: flag.port(9292),
    // Undefined until resolved below: it follows --port unless given.
    "region-port": flag.port(0).removeDefault().optional(),
    "latency-ms": flag.nonNegativeInt(0).refine((n) => n <= 600_000, "must be at most 600000"),
    seed: z.string().min(1, "must name a YAML file").optional(),
    "log-level": flag.logLevel(),
  })
  .strict()
  .transform((o) => ({ ...o, "region-port": o["region-port"] ?? defaultRegionPort(o.port) }));

/**
 * The wrong-region host sits next to the account's host: --port + 1 (9293 beside 9292), and a free
 * port when --port is 0, so `--port 0` alone never collides with a running simulator or playground.
 */
export function defaultRegionPort(port: number): number {
  return port === 0 || port === 65535 ? 0 : port + 1;
}

export type SimulatorCommandOptions = z.output<typeof schema>;

/** Waits for SIGINT or SIGTERM (once), then resolves with the signal's name. */
export function waitForStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Starts the simulator from CLI options and prints where it listens and how to log in. */
export async function startFromOptions(options: SimulatorCommandOptions, io: CommandIo): Promise<Simulator> {
  // Loaded when the command runs: the built CLI keeps each command's code in its own chunk.
  const [
    { resources },
    { readSeedFile, SeedError },
    { SEED_CREDENTIALS },
    { createSimulator },
    { resolveHookToken, HookTokenError, HOOK_TOKEN_ENV, HOOK_TOKEN_HEADER },
  ] = await Promise.all([
    import("./resources/index.ts"),
    import("./seed.ts"),
    import("./seed-data.ts"),
    import("./server.ts"),
    import("./hook-token.ts"),
  ]);
  let hook: ReturnType<typeof resolveHookToken>;
  try {
    hook = resolveHookToken(undefined);
  } catch (error) {
    if (error instanceof HookTokenError) throw new UsageError(error.message);
    throw error;
  }
  let seed: Awaited<ReturnType<typeof readSeedFile>> | undefined;
  if (options.seed !== undefined) {
    try {
      seed = await readSeedFile(options.seed, resources);
    } catch (error) {
      if (error instanceof SeedError) throw new UsageError(`--seed: ${error.message}`);
      throw error;
    }
  }
  const logger = pino({ level: options["log-level"], base: { component: "simulator" } }, pino.destination(1));
  const ports = [
    { flag: `--port ${options.port}`, host: options.host, port: options.port },
    { flag: `--region-port ${options["region-port"]}`, host: options.host, port: options["region-port"] },
  ];
  // Both ports first: one run names both when both are taken.
  const taken = await checkPorts(ports, `--host ${options.host}`);
  if (taken) throw taken;
  let sim: Simulator;
  try {
    sim = await createSimulator({
      host: options.host,
      port: options.port,
      regionPort: options["region-port"],
      latencyMs: options["latency-ms"],
      seed,
      logger,
      hookToken: hook.token,
    });
  } catch (error) {
    throw listenError(error, ports, `--host ${options.host}`) ?? error;
  }
  io.out(`svc-operator simulator: service API 1.5 at ${sim.url}`);
  io.out(`  wrong-region host (answers 302 to the account's host): ${sim.regionUrl}`);
  io.out(`  account: /api/accounts/${SEED_CREDENTIALS.accountId}`);
  if (seed === undefined) {
    io.out(`  user 1 (every role): ${SEED_CREDENTIALS.admin.email} / ${SEED_CREDENTIALS.admin.password}`);
    io.out(`  user 2 (no roles):   ${SEED_CREDENTIALS.user2.email} / ${SEED_CREDENTIALS.user2.password}`);
    io.out(`  OAuth refresh token of user 1: ${SEED_CREDENTIALS.refreshToken}`);
  } else {
    io.out(`  seed: ${options.seed} (credentials as that file defines them)`);
  }
  io.out(`  test hooks: ${sim.url}/__sim/{state,stats,creates,faults,clock,reset}`);
  // A token from the environment is the caller's own: it is not echoed.
  io.out(
    hook.source === "generated"
      ? `  test hook token (header ${HOOK_TOKEN_HEADER}): ${hook.token}`
      : `  test hook token (header ${HOOK_TOKEN_HEADER}): from ${HOOK_TOKEN_ENV}`,
  );
  return sim;
}

export const simulatorCommand = defineCommand({
  name: "simulator",
  summary: "run the service API 1.5 simulator (embedded default cloud, with fault injection)",
  flags: {
    host: { type: "string", description: "address to bind", default: "127.0.0.1" },
    port: { type: "string", description: "port of the account's host (0 = any free port)", default: "9292" },
    "region-port": {
      type: "string",
      description: "port of the wrong-region host that answers 302 (0 = any free port)",
      default: "--port + 1, or any free port with --port 0",
    },
    "latency-ms": { type: "string", description: "latency added to every API call, in ms", default: "0" },
    seed: { type: "string", description: "YAML seed file replacing the default seed" },
    "log-level": {
      type: "string",
      description: "trace, debug, info, warn, error, fatal or silent",
      default: "info",
    },
  },
  schema,
  async run(options, io) {
    const sim = await startFromOptions(options, io);
    const signal = await waitForStopSignal();
    io.out(`svc-operator simulator: ${signal}, stopping`);
    await sim.close();
    return 0;
  },
});
