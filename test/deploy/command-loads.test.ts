// Each subcommand loads only what it uses: plan, export and trace read the cluster and the
// service, and never load the operator's manager (work queue, workers, election) or its
// informers. Run as a user runs them, from the source, with a hook that records every module.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "src", "cli.ts");
const HOOK = join(ROOT, "test", "support", "loaded-modules.testing.ts");

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "command-loads-"));
  await writeFile(
    join(dir, "web.yaml"),
    "apiVersion: cloud.svc.io/v1alpha1\nkind: Deployment\nmetadata: {name: web, namespace: demo}\nspec: {}\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The project's modules the command loaded (paths from the repository's root). */
async function loadedBy(args: string[]): Promise<string[]> {
  const file = join(dir, `${args[0]}.loaded`);
  // A kubeconfig that does not exist: each command has loaded what it runs when it reads it.
  const all = [...args, "--kubeconfig", join(dir, "no-such-kubeconfig")];
  await new Promise<void>((resolve) => {
    execFile(
      process.execPath,
      ["--import", HOOK, CLI, ...all],
      { env: { ...process.env, LOADED_MODULES_FILE: file } },
      () => resolve(),
    );
  });
  const urls = (await readFile(file, "utf8")).split("\n");
  return urls.filter((u) => u.includes("/src/")).map((u) => u.slice(u.indexOf("/src/") + 1));
}

describe("what a subcommand loads", { timeout: 60_000 }, () => {
  it.each([
    [["plan", "-f", "WEB"], "src/plan/evaluate.ts"],
    [["export", "--account", "demo/default", "--out", "-"], "src/export/run.ts"],
    [["trace", "deployment/web", "-n", "demo"], "src/trace/graph.ts"],
  ])("%j loads its own code and neither the manager nor the informers", async (args, own) => {
    const loaded = await loadedBy(args.map((a) => (a === "WEB" ? join(dir, "web.yaml") : a)));
    expect(loaded).toContain(own);
    expect(loaded.filter((m) => /^src\/runtime\/(manager|cache)\//.test(m))).toEqual([]);
  });
});
