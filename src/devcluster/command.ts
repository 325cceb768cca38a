import * as z from "zod";
import { defineCommand, flag, listenError } from "../lib/cli/index.ts";
import { parseDenyFlag } from "./deny.ts";
import type { createDevCluster, DevClusterOptions } from "./index.ts";

const schema = z
  .object({
    host: flag.host(),
    port: flag.port(6443),
    kubeconfig: z.string().min(1, "must not be empty").optional(),
    "state-file": z.string().min(1, "must not be empty").optional(),
    token: z.string().min(16, "must be at least 16 characters").optional(),
    "plain-http": z.boolean().default(false),
    deny: z
      .string()
      .transform((text, ctx) => {
        try {
          return parseDenyFlag(text);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      })
      .optional(),
  })
  .strict();

/** Waits for SIGINT/SIGTERM; injectable so tests can stop the command. */
export type StopSignal = () => Promise<void>;

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}

export function devclusterCommand(stop: StopSignal = waitForSignal) {
  return defineCommand({
    name: "devcluster",
    summary: "a small Kubernetes-API-compatible server for local use and tests (not a production apiserver)",
    flags: {
      host: { type: "string", description: "address to bind", default: "127.0.0.1" },
      port: { type: "string", description: "port to listen on (0 picks a free one)", default: "6443" },
      kubeconfig: { type: "string", description: "write a kubeconfig for this server to this path" },
      "state-file": {
        type: "string",
        description: "persist the store here (atomic writes) and load it at start",
      },
      token: {
        type: "string",
        description: "bearer token to require (default: the state file's, else a random one, printed)",
      },
      "plain-http": {
        type: "boolean",
        description:
          "serve plain HTTP instead of HTTPS (kubectl then cannot send the token: client-node only)",
      },
      deny: {
        type: "string",
        description:
          "test-only: answer these requests with kube-apiserver's 403, e.g. list:accounts.cloud.svc.io,patch:deployments.cloud.svc.io/status (see POST /__dev/faults/deny)",
      },
    },
    schema,
    async run(options, io) {
      const config: DevClusterOptions = {
        host: options.host,
        port: options.port,
        tls: !options["plain-http"],
        log: (level, message, fields) =>
          io.err(JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...(fields ?? {}) })),
      };
      if (options.kubeconfig) config.kubeconfigPath = options.kubeconfig;
      if (options["state-file"]) config.stateFile = options["state-file"];
      if (options.token) config.token = options.token;
      if (options.deny) config.deny = options.deny;
      // Loaded when the command runs: the built CLI keeps each command's code in its own chunk.
      const { createDevCluster } = await import("./index.ts");
      let cluster: Awaited<ReturnType<typeof createDevCluster>>;
      try {
        cluster = await createDevCluster(config);
      } catch (error) {
        const usage = listenError(
          error,
          [{ flag: `--port ${options.port}`, host: options.host, port: options.port }],
          `--host ${options.host}`,
        );
        if (usage) throw usage;
        io.err(`svc-operator devcluster: ${(error as Error).message}`);
        return 1;
      }
      io.out(`devcluster listening on ${cluster.url}`);
      io.out(`token: ${cluster.token}`);
      if (cluster.kubeconfigPath) {
        io.out(`kubeconfig written to ${cluster.kubeconfigPath}; use it with:`);
        io.out(`  export KUBECONFIG=${cluster.kubeconfigPath}`);
        io.out("  kubectl get namespaces");
      } else {
        io.out(`use it with: kubectl --server ${cluster.url} --token <token above> get namespaces`);
        io.out("  (or pass --kubeconfig PATH to get a kubeconfig file)");
      }
      if (options["state-file"]) io.out(`state file: ${options["state-file"]}`);
      io.out(
        `fault hook: curl -X POST -H "Authorization: Bearer <token>" ${cluster.url}/__dev/faults/cut-watches`,
      );
      await stop();
      await cluster.close();
      return 0;
    },
  });
}

export const devcluster = devclusterCommand();
