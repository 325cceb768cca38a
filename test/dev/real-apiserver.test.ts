import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Playground, startPlayground } from "../docs/playground.ts";
import { onPath } from "../docs/shell.ts";
import { controlPlaneAssets } from "../support/control-plane.testing.ts";

/**
 * `svc-operator dev` with KUBEBUILDER_ASSETS set (as `--kube-apiserver-assets DIR`, which the
 * docs' commands use): the playground on a real kube-apiserver and etcd of its own (not the
 * run's: dev starts and stops them), every sample Ready there, the banner saying what a bare
 * apiserver lacks and where the choice came from.
 */

const exec = promisify(execFile);
const kubectl = onPath("kubectl");
const assets = controlPlaneAssets();

describe.runIf(assets && kubectl)("svc-operator dev on a real kube-apiserver", () => {
  let playground: Playground;

  beforeAll(async () => {
    playground = await startPlayground(120_000, [], { ...process.env, KUBEBUILDER_ASSETS: assets });
  }, 150_000);

  afterAll(async () => {
    expect(await playground?.stop()).toBe(0);
  }, 60_000);

  it("says it runs on kube-apiserver, and what a bare one lacks", () => {
    const banner = playground.lines.join("\n");
    expect(banner).toMatch(/^svc-operator dev: kube-apiserver https:\/\/127\.0\.0\.1:\d+, simulator /m);
    expect(banner).toContain("(no controller-manager): a namespace deletion never finishes");
    expect(banner).toContain("(from KUBEBUILDER_ASSETS: unset it to run on the devcluster)");
  });

  it("every sample became Ready there, and kubectl with the printed KUBECONFIG talks to it", async () => {
    expect(playground.lines.some((l) => /^all \d+ samples Ready in/.test(l))).toBe(true);
    const env = { ...process.env, KUBECONFIG: playground.kubeconfig };
    const version = JSON.parse((await exec(kubectl!, ["version", "-o", "json"], { env })).stdout);
    expect(version.serverVersion.gitVersion).toMatch(/^v1\.32\./);
    const wait = await exec(
      kubectl!,
      ["wait", "--for=condition=Ready", "svccloud", "--all", "-n", "demo", "--timeout=30s"],
      { env },
    );
    expect(wait.stdout).toMatch(/condition met/);
  });
});
