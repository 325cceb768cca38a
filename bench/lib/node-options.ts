// The V8 flags the operator ships with: benches and the soak run it with them, since they set
// how far its heap (and so its RSS) may grow between collections.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";

const ROOT = join(import.meta.dirname, "..", "..");

/** NODE_OPTIONS of the operator's container in deploy/operator/deployment.yaml. */
export async function deploymentNodeOptions(): Promise<string> {
  const manifest = parse(await readFile(join(ROOT, "deploy", "operator", "deployment.yaml"), "utf8")) as {
    spec: { template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } } };
  };
  const env = manifest.spec.template.spec.containers[0]?.env ?? [];
  const value = env.find((e) => e.name === "NODE_OPTIONS")?.value;
  if (value === undefined) throw new Error("deploy/operator/deployment.yaml sets no NODE_OPTIONS");
  return value;
}
