import { KubeConfig } from "@kubernetes/client-node";
import { z } from "zod";
import { defineCommand } from "../cli/command.ts";
import { managedKinds } from "../kinds/index.ts";
import type { ManagedObject } from "../runtime/kind.ts";
import { KubeHttpError, KubeRequestError, RawKube } from "../runtime/kube-raw.ts";
import { GROUP, VERSION } from "../runtime/names.ts";
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
  const kc = loadKubeConfig(options.kubeconfig);
  const namespace = options.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? "default";
  const kinds = servedKinds();
  const kube = new RawKube(kc);
  let lists: { kind: string; items: ManagedObject[] }[];
  try {
    // Every kind's list in the namespace (the operator's own read permissions: list, no get):
    // dependents can be of any kind.
    lists = await Promise.all(
      kinds.map(async (k) => ({
        kind: k.kind,
        items: (
          await kube.call<{ items: ManagedObject[] }>(
            "GET",
            `/apis/${GROUP}/${VERSION}/namespaces/${encodeURIComponent(namespace)}/${k.plural}`,
          )
        ).items,
      })),
    );
  } catch (error) {
    throw kubeError(error, kc);
  } finally {
    await kube.close();
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

function loadKubeConfig(file: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  const source = file ? `--kubeconfig ${file}` : "the default kubeconfig ($KUBECONFIG, ~/.kube/config)";
  try {
    if (file) kc.loadFromFile(file);
    else kc.loadFromDefault();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    throw new TraceError(
      `error: cannot load ${source}: ${code === "ENOENT" ? "no such file" : message.split("\n")[0]}`,
    );
  }
  if (!kc.getCurrentCluster()) throw new TraceError(`error: ${source} has no current cluster`);
  return kc;
}

/** What kubectl prints for the same failure. */
function kubeError(error: unknown, kc: KubeConfig): TraceError {
  if (error instanceof KubeHttpError)
    return new TraceError(`Error from server (${error.reason ?? error.code}): ${error.statusMessage}`);
  if (error instanceof KubeRequestError)
    return new TraceError(
      `error: cannot reach the cluster at ${kc.getCurrentCluster()?.server}: ${error.message.replace(/^GET \S+ failed: /, "")}`,
    );
  return new TraceError(`error: ${error instanceof Error ? error.message : String(error)}`);
}
