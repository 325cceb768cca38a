import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevCluster, type DevCluster } from "../../src/devcluster/index.ts";
import { shellBlocks } from "./markdown.ts";
import { ROOT } from "./playground.ts";
import { onPath, readerEnv, runShell } from "./shell.ts";

/**
 * The documented way to install the CRDs and list them works on a cluster that has none yet,
 * with kubectl's discovery cache written before they existed: the case where
 * `kubectl apply -k crds/ && kubectl get svccloud -A` fails. The blocks are found in the docs by
 * their `kubectl apply -k crds/` line; their `export KUBECONFIG=...` points at the file the
 * documented `svc-operator devcluster` writes, which this test replaces with its own devcluster.
 */
const PAGES = ["README.md", "docs/devcluster.md"];
const kubectl = onPath("kubectl");

describe.skipIf(!kubectl)(
  `installing the CRDs as documented${kubectl ? "" : " (skipped: kubectl not on PATH)"}`,
  () => {
    let dir: string;
    let cluster: DevCluster;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "svc-operator-crd-install-"));
    });
    afterAll(async () => {
      await cluster?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it.each(PAGES)("%s", { timeout: 60_000 }, async (file) => {
      const block = shellBlocks(file, readFileSync(join(ROOT, file), "utf8")).find((b) =>
        b.commands.some((c) => c.text.startsWith("kubectl apply -k crds/")),
      );
      expect(block, `${file}: a block with kubectl apply -k crds/`).toBeDefined();
      // A cluster without the CRDs, and a kubectl cache of its own, for each page.
      await cluster?.close();
      cluster = await createDevCluster({
        tls: true,
        kubeconfigPath: join(dir, `${file.replace(/\W/g, "-")}.kubeconfig`),
      });
      const env = readerEnv({
        KUBECONFIG: join(dir, `${file.replace(/\W/g, "-")}.kubeconfig`),
        KUBECACHEDIR: join(dir, `${file.replace(/\W/g, "-")}-cache`),
      });
      for (const command of block!.commands) {
        if (command.text.startsWith("export KUBECONFIG=")) continue;
        const { code, output } = await runShell(command.text, { cwd: ROOT, env, timeoutMs: 30_000 });
        expect(code, `${file}:${command.line} ${command.text}\n${output}`).toBe(0);
      }
    });
  },
);
