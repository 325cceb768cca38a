import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dev } from "../../src/dev/command.ts";
import { parseFlags } from "../../src/lib/cli/index.ts";
import { testServer } from "../operator/servers.ts";
import { controlPlaneAssets } from "../support/control-plane.testing.ts";
import { type DocCommand, type ShellBlock, shellBlocks } from "./markdown.ts";
import { missingLines } from "./output.ts";
import { PAGES } from "./pages.ts";
import { type Playground, ROOT, startPlayground } from "./playground.ts";
import { onPath, readerEnv, runShell } from "./shell.ts";

/**
 * The documented commands work as written. Every shell block of the pages (`pages.ts`) is extracted
 * (conventions: `markdown.ts`, output matching: `output.ts`) and run in document order, from
 * the repository root, against one playground this test starts (`svc-operator dev` on free
 * ports), with the KUBECONFIG the playground printed and a fresh kubectl cache. Blocks marked
 * `real-cluster` are skipped, `setup` blocks (`npm ci`, `npm test`, `npm run dev`) are what this
 * test stands for: checked, not run. The command texts live only in the docs.
 */

/** How long a command with documented output is re-run until that output appears. */
const SETTLE_MS = 30_000;
const COMMAND_TIMEOUT_MS = 45_000;

/**
 * In the run's kube-apiserver project the playground runs on a real apiserver
 * (`--kube-apiserver-assets`): the same commands, against the real thing.
 */
const onRealServer = testServer() === "kube-apiserver";

const kubectl = onPath("kubectl");
if (!kubectl) console.warn("kubectl is not on PATH: skipping the documented kubectl commands");

const blocks: ShellBlock[] = PAGES.flatMap(({ file, sections }) =>
  shellBlocks(file, readFileSync(join(ROOT, file), "utf8"), sections),
);

/** `npm ci`, `npm test`, `npm run dev [-- flags]`, chained with `&&`; throws on anything else. */
function checkSetup(command: string): void {
  for (const part of command.replace(/\s+#.*$/, "").split("&&")) {
    const words = part.trim().split(/\s+/);
    const line = words.join(" ");
    if (line === "npm ci" || line === "npm test") continue;
    if (line.startsWith("npm run dev")) {
      const flags = words.slice(3);
      if (flags.length > 0 && flags.shift() !== "--") throw new Error(`${line}: flags go after --`);
      parseFlags(dev, flags); // throws a UsageError naming a flag that does not exist or is bad
      continue;
    }
    throw new Error(`"${line}" is not a setup command this test stands for: mark it otherwise`);
  }
}

describe("the documented commands, against a playground", () => {
  let playground: Playground;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // On the real apiserver through KUBEBUILDER_ASSETS, as a shell that has it set starts `dev`.
    playground = onRealServer
      ? await startPlayground(120_000, [], { ...process.env, KUBEBUILDER_ASSETS: controlPlaneAssets() })
      : await startPlayground();
    env = readerEnv({
      KUBECONFIG: playground.kubeconfig,
      KUBECACHEDIR: join(playground.cwd, "kubectl-cache"),
    });
  }, 120_000);

  afterAll(async () => {
    expect(await playground?.stop()).toBe(0);
  }, 60_000);

  it("extracts runnable commands from every page", () => {
    for (const { file } of PAGES) {
      const runnable = blocks.filter((b) => b.file === file && b.marks.size === 0);
      expect(runnable.length, `${file} has no command the test runs`).toBeGreaterThan(0);
    }
  });

  it.runIf(onRealServer)(
    "on KUBEBUILDER_ASSETS the playground runs on kube-apiserver, and says what a bare one lacks",
    () => {
      const banner = playground.lines.join("\n");
      expect(banner).toMatch(/^svc-operator dev: kube-apiserver https:\/\/127\.0\.0\.1:\d+, simulator /m);
      expect(banner).toContain("(no controller-manager): a namespace deletion never finishes");
      expect(banner).toContain("(from KUBEBUILDER_ASSETS: unset it to run on the devcluster)");
    },
  );

  it.skipIf(onRealServer)(
    "the playground, started with a relative --state-dir elsewhere, prints an absolute KUBECONFIG",
    () => {
      expect(isAbsolute(playground.kubeconfig), playground.kubeconfig).toBe(true);
      expect(playground.kubeconfig).toBe(join(playground.cwd, ".svc-operator", "kubeconfig"));
    },
  );

  for (const block of blocks) {
    block.commands.forEach((command, index) => {
      const title = `${block.file}:${command.line} ${command.text.split("\n")[0]}`;
      const last = index === block.commands.length - 1;
      if (block.marks.has("real-cluster")) {
        it.skip(`${title} (needs a real cluster)`, () => {});
      } else if (block.marks.has("setup")) {
        it(`${title} (setup: this test stands for it)`, () => {
          checkSetup(command.text);
          // The banner a page shows is the devcluster's.
          if (last && block.output && command.text.includes("npm run dev") && !onRealServer)
            expect(
              missingLines(block.output.text, playground.lines.join("\n")),
              "missing from its output",
            ).toEqual([]);
        });
      } else if (!kubectl && /\bkubectl\b/.test(command.text)) {
        it.skip(`${title} (skipped: kubectl not on PATH)`, () => {});
      } else {
        it(title, { timeout: SETTLE_MS + COMMAND_TIMEOUT_MS + 5_000 }, async () => {
          await check(command, block.marks.has("fails"), last ? block.output?.text : undefined);
        });
      }
    });
  }

  /**
   * Runs a command; with documented output, re-runs it until that output appears (the
   * operator converges in the background, as it does between a reader's commands).
   */
  async function check(command: DocCommand, fails: boolean, expected: string | undefined) {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const { code, output } = await runShell(command.text, {
        cwd: ROOT,
        env,
        timeoutMs: COMMAND_TIMEOUT_MS,
      });
      const exitOk = fails ? code !== 0 && code !== null : code === 0;
      const missing = expected === undefined ? [] : missingLines(expected, output);
      if (exitOk && missing.length === 0) return;
      if (expected === undefined || Date.now() > deadline) {
        const why = exitOk ? `documented output missing:\n  ${missing.join("\n  ")}` : `exit code ${code}`;
        throw new Error(`${why}\n--- it printed:\n${output}`);
      }
      await sleep(500);
    }
  }
});
