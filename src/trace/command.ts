import * as z from "zod";
import { ClusterError, ClusterReader } from "../inventory/index.ts";
import { managedKinds } from "../kinds/index.ts";
import { defineCommand } from "../lib/cli/index.ts";
import { KubeHttpError, KubeRequestError } from "../runtime/client/index.ts";
import type { ManagedObject } from "../runtime/sdk/index.ts";
import { GROUP } from "../runtime/sdk/index.ts";
import { ReferenceGraph } from "./graph.ts";
import { renderJson, renderTable } from "./render.ts";
import { parseTarget, servedKinds, TraceError } from "./target.ts";

const OUTPUTS = ["wide", "json"] as const;

export const traceCommand = defineCommand({
  name: "trace",
  summary:
    "show a custom resource's tree: its Account and the resources it references, the resources that reference it, and why any is not Ready",
  args: "KIND/NAME",
  usageExitCode: 1,
  flags: {
    namespace: {
      type: "string",
      short: "n",
      description: "the namespace of the resource (default: the kubeconfig context's, else default)",
    },
    kubeconfig: {
      type: "string",
      description: "the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)",
    },
    output: { type: "string", short: "o", description: "wide (whole messages) or json; a table when unset" },
  },
  schema: z.object({
    args: z.array(z.string()),
    namespace: z.string().min(1, "must not be empty").optional(),
    kubeconfig: z.string().min(1, "must not be empty").optional(),
    output: z.string().optional(),
  }),
  async run(options, io) {
    try {
      io.out(await trace(options));
      return 0;
    } catch (error) {
      if (error instanceof TraceError) {
        io.err(error.message);
        return 1;
      }
      throw error;
    }
  },
});

async function trace(options: {
  args: string[];
  namespace?: string;
  kubeconfig?: string;
  output?: string;
}): Promise<string> {
  const output = options.output;
  if (output !== undefined && !(OUTPUTS as readonly string[]).includes(output))
    throw new TraceError(
      `error: unable to match a printer suitable for the output format "${output}", allowed formats are: ${OUTPUTS.join(",")}`,
    );
  const { kind, name } = parseTarget(options.args);
  const reader = new ClusterReader(options.kubeconfig);
  const namespace = options.namespace ?? reader.contextNamespace ?? "default";
  const kinds = servedKinds();
  let lists: { kind: string; items: ManagedObject[] }[];
  try {
    // Every kind's list in the namespace (the operator's own read permissions: list, no get):
    // dependents can be of any kind.
    lists = await Promise.all(
      kinds.map(async (k) => ({ kind: k.kind, items: await reader.list(k.plural, namespace) })),
    );
  } catch (error) {
    throw kubeError(error instanceof ClusterError ? error.cause : error, reader.server);
  } finally {
    await reader.close();
  }
  const graph = new ReferenceGraph(
    lists.flatMap((l) => l.items.map((object) => ({ kind: l.kind, object }))),
    managedKinds,
    new Map(kinds.map((k) => [k.kind, `${k.plural}.${GROUP}`])),
  );
  if (!graph.has(kind.kind, namespace, name))
    throw new TraceError(`Error from server (NotFound): ${kind.plural}.${GROUP} "${name}" not found`);
  const tree = graph.trace(kind.kind, namespace, name);
  return output === "json" ? renderJson(tree) : renderTable(tree, output === "wide");
}

/** What kubectl prints for the same failure. */
function kubeError(error: unknown, server: string): TraceError {
  if (error instanceof KubeHttpError)
    return new TraceError(`Error from server (${error.reason ?? error.code}): ${error.statusMessage}`);
  if (error instanceof KubeRequestError)
    return new TraceError(
      `error: cannot reach the cluster at ${server}: ${error.message.replace(/^GET \S+ failed: /, "")}`,
    );
  return new TraceError(`error: ${error instanceof Error ? error.message : String(error)}`);
}
