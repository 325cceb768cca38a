import { execFile } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, extname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { parseYamlFile } from "./render.ts";

const CRDS = join(import.meta.dirname, "..", "..", "crds");
/** The files `kubectl apply -f <dir>` reads: only these extensions (kubectl's FileExtensions). */
const KUBECTL_EXTENSIONS = new Set([".json", ".yaml", ".yml"]);

function kubectlOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, "kubectl"), constants.X_OK);
      return join(dir, "kubectl");
    } catch {}
  }
  return undefined;
}

describe("crds/ for users who do not use kustomize", () => {
  it("every file `kubectl apply -f crds/` reads is a CustomResourceDefinition", () => {
    const read = readdirSync(CRDS).filter((f) => KUBECTL_EXTENSIONS.has(extname(f)));
    expect(read.length).toBeGreaterThan(0);
    for (const file of read)
      for (const doc of parseYamlFile(join(CRDS, file)))
        expect((doc as { kind?: string }).kind, file).toBe("CustomResourceDefinition");
  });

  const kubectl = kubectlOnPath();
  describe.skipIf(!kubectl)(`with kubectl${kubectl ? "" : " (skipped: kubectl not on PATH)"}`, () => {
    let cluster: DevCluster;
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "crds-apply-"));
      cluster = await createDevCluster({ tls: true, kubeconfigPath: join(dir, "config") });
    });
    afterAll(async () => {
      await cluster?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("`kubectl apply -f crds/` creates every CRD and fails on nothing", async () => {
      const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          kubectl!,
          [`--kubeconfig=${join(dir, "config")}`, `--cache-dir=${join(dir, "cache")}`, "apply", "-f", CRDS],
          { timeout: 60_000 },
          (error, stdout, stderr) =>
            resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
        ),
      );
      expect(out.stderr).toBe("");
      expect(out.code).toBe(0);
      const files = readdirSync(CRDS).filter((f) => KUBECTL_EXTENSIONS.has(extname(f)));
      expect(out.stdout.match(/customresourcedefinition\.apiextensions\.k8s\.io\/\S+ created/g)).toHaveLength(
        files.length,
      );
    });
  });
});
