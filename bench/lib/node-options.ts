// How the image runs the operator, read from the files that ship it: benches and the soak run the
// bundle so, since node's flags and its environment set how far its memory (RSS) grows.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { parseDockerfile } from "../../test/deploy/dockerfile.ts";

const ROOT = join(import.meta.dirname, "..", "..");

export interface ImageRuntime {
  /** node's own flags in the image's ENTRYPOINT (V8 flags NODE_OPTIONS does not allow). */
  nodeArgs: string[];
  /**
   * The environment the operator's container gets: the runtime stage's ENV (NODE_ENV, malloc's
   * settings), then the Deployment's container env with literal values (NODE_OPTIONS), which wins.
   */
  env: Record<string, string>;
}

export async function imageRuntime(): Promise<ImageRuntime> {
  const [dockerfile, deployment] = await Promise.all([
    readFile(join(ROOT, "Dockerfile"), "utf8"),
    readFile(join(ROOT, "deploy", "operator", "deployment.yaml"), "utf8"),
  ]);
  const runtime = parseDockerfile(dockerfile).at(-1)!;
  const env: Record<string, string> = {};
  let entrypoint: string[] = [];
  for (const { op, args } of runtime.instructions) {
    if (op === "ENV") {
      const [name, ...value] = args.split("=");
      env[name!] = value.join("=");
    } else if (op === "ENTRYPOINT") entrypoint = JSON.parse(args) as string[];
  }
  const cli = entrypoint.indexOf("dist/cli.js");
  if (entrypoint[0] !== "node" || cli < 0)
    throw new Error(`Dockerfile: ENTRYPOINT must run node dist/cli.js, not ${JSON.stringify(entrypoint)}`);
  const manifest = parse(deployment) as {
    spec: { template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } } };
  };
  for (const e of manifest.spec.template.spec.containers[0]?.env ?? [])
    if (e.value !== undefined) env[e.name] = e.value;
  if (env.NODE_OPTIONS === undefined) throw new Error("deploy/operator/deployment.yaml sets no NODE_OPTIONS");
  return { nodeArgs: entrypoint.slice(1, cli), env };
}
